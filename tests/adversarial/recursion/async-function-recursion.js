// An async function that calls itself before its first await.
async function f(n) { await f(n + 1); }
f(0);
({vertices: [{type: 'probe', name: 'p', found: []}], edges: []})
