// Function('return this')() and a constructor chain from an input value, looking for host capabilities.
const names = ['process', 'require', 'module', 'exports', '__dirname', '__filename', 'fetch', 'XMLHttpRequest', 'WebSocket', 'WebAssembly', 'console', 'print', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'structuredClone', 'Deno', 'Bun', 'global', 'window', 'self', 'document', 'navigator', 'importScripts', 'load', 'read', 'readFile', 'os', 'std', 'Java', 'Packages', 'performance', 'crypto', 'Buffer', 'location', 'localStorage', 'indexedDB', 'postMessage', 'gc', '$262'];
const g1 = Function('return this')();
const g2 = cfg.constructor.constructor('return this')();
const g3 = [].constructor.constructor('return globalThis')();
const found = [];
for (const g of [g1, g2, g3]) {
  if (g !== globalThis) found.push('different-global');
  for (const n of names) if (n in g) found.push(n);
}
({vertices: [{type: 'probe', name: 'p', found: found}], edges: []})
