// Mutates and freezes its input object.
cfg.x = 'evil';
cfg.list.push(3);
Object.freeze(cfg);
({vertices: [{type: 'probe', name: 'p', found: []}], edges: []})
