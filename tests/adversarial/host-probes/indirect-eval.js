// Indirect eval of host-revealing expressions.
const found = [];
const ev = eval;
const g = (0, eval)('this');
if (g !== globalThis) found.push('different-global');
for (const n of ['process', 'require', 'console', 'fetch', 'WebAssembly', 'setTimeout']) {
  if (ev('typeof ' + n) !== 'undefined') found.push(n);
}
({vertices: [{type: 'probe', name: 'p', found: found}], edges: []})
