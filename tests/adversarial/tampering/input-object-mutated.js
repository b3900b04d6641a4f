// Script A mutates its input object; script B, given the same inputs, must see the original values.
const found = [];
if (cfg.x !== 'clean') found.push('x=' + cfg.x);
if (cfg.list.length !== 2) found.push('list-length=' + cfg.list.length);
if (Object.isFrozen(cfg)) found.push('frozen');
({vertices: [{type: 'probe', name: 'p', found: found}], edges: []})
