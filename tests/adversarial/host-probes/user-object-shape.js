// Inspects the user object: only getName, a native function of the sandbox realm, returning a string.
const found = [];
const keys = Reflect.ownKeys(user).map(String);
if (keys.join() !== 'getName') found.push('keys:' + keys.join());
if (Object.getPrototypeOf(user) !== Object.prototype) found.push('foreign-prototype');
if (!(user.getName instanceof Function)) found.push('foreign-function');
if (typeof user.getName() !== 'string') found.push('not-a-string');
if (typeof user.getName.call(undefined) !== 'string') found.push('unbound-call');
if (typeof new Proxy(user.getName, {}).call({}) !== 'string') found.push('proxy-call');
try { new user.getName(); found.push('constructible'); } catch (e) { if (!(e instanceof TypeError)) found.push('foreign-error'); }
if (!/native code/.test(Function.prototype.toString.call(user.getName))) found.push('source-visible');
({vertices: [{type: 'probe', name: 'p', found: found}], edges: []})
