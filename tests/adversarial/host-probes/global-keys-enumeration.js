// Enumerates every own key of globalThis (and its prototype chain): only ECMAScript built-ins and the script globals may appear.
const allowed = ['globalThis', 'Infinity', 'NaN', 'undefined', 'eval', 'isFinite', 'isNaN', 'parseFloat', 'parseInt',
  'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'escape', 'unescape',
  'AggregateError', 'Array', 'ArrayBuffer', 'BigInt', 'BigInt64Array', 'BigUint64Array', 'Boolean', 'DataView', 'Date',
  'Error', 'EvalError', 'FinalizationRegistry', 'Float16Array', 'Float32Array', 'Float64Array', 'Function',
  'Int8Array', 'Int16Array', 'Int32Array', 'Iterator', 'Map', 'Number', 'Object', 'Promise', 'Proxy', 'RangeError',
  'ReferenceError', 'RegExp', 'Set', 'SharedArrayBuffer', 'String', 'Symbol', 'SyntaxError', 'TypeError',
  'Uint8Array', 'Uint8ClampedArray', 'Uint16Array', 'Uint32Array', 'URIError', 'WeakMap', 'WeakRef', 'WeakSet',
  'Atomics', 'JSON', 'Math', 'Reflect', 'DisposableStack', 'AsyncDisposableStack', 'SuppressedError',
  'draft', 'user', 'cfg'];
const found = [];
let o = globalThis;
while (o !== null && o !== Object.prototype) {
  for (const k of Reflect.ownKeys(o)) {
    if (typeof k === 'symbol') { if (k !== Symbol.toStringTag) found.push(String(k)); continue; }
    if (!allowed.includes(k)) found.push(k);
  }
  o = Object.getPrototypeOf(o);
}
({vertices: [{type: 'probe', name: 'p', found: found}], edges: []})
