// Dynamic import() of host modules: it must return a promise and load nothing (jobs never run).
const found = [];
for (const spec of ['fs', 'node:fs', 'child_process', '/etc/passwd', 'file:///etc/passwd', 'https://example.com/x.js', './adv.js']) {
  try {
    const p = import(spec);
    if (!(p instanceof Promise)) found.push('not-a-promise:' + spec);
  } catch (e) { found.push('threw:' + spec); }
}
({vertices: [{type: 'probe', name: 'p', found: found}], edges: []})
