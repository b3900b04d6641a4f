// Freezes Object.prototype and Array.prototype.
Object.freeze(Object.prototype);
Object.freeze(Array.prototype);
({vertices: [{type: 'probe', name: 'p', found: []}], edges: []})
