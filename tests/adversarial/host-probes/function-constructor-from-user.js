// Reaches the global object through user.getName.constructor and looks for host capabilities on it.
const g = user.getName.constructor('return this')();
const names = ['process', 'require', 'module', 'exports', '__dirname', '__filename', 'fetch', 'XMLHttpRequest', 'WebSocket', 'WebAssembly', 'console', 'print', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'structuredClone', 'Deno', 'Bun', 'global', 'window', 'self', 'document', 'navigator', 'importScripts', 'load', 'read', 'readFile', 'os', 'std', 'Java', 'Packages', 'performance', 'crypto', 'Buffer', 'location', 'localStorage', 'indexedDB', 'postMessage', 'gc', '$262'];
const found = names.filter(n => n in g || typeof g[n] !== 'undefined');
if (g !== globalThis) found.push('different-global');
if (user.getName.constructor !== Function) found.push('foreign-Function');
({vertices: [{type: 'probe', name: 'p', found: found}], edges: []})
