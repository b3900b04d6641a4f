// Script A registers FinalizationRegistry and WeakRef callbacks that would loop; script B must run normally (callbacks never run in it).
let garbage = [];
for (let i = 0; i < 1000; i++) garbage.push({ i });
garbage = null;
({vertices: [{type: 'probe', name: 'p', found: []}], edges: []})
