// Script A defines globals (var, function, globalThis property, non-configurable property); script B must not see them.
const found = [];
for (const k of ['leakVar', 'leakFn', 'leakProp', 'leakLocked', 'leakLet']) {
  if (k in globalThis) found.push(k);
}
try { leakLet; found.push('leakLet-binding'); } catch (e) { }
({vertices: [{type: 'probe', name: 'p', found: found}], edges: []})
