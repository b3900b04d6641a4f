// A result whose vertices and edges are only inherited from its prototype.
Object.create({ vertices: [{ type: 't', name: 'v' }], edges: [] })
