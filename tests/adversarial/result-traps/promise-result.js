// The final expression is a promise of a graph (never awaited).
Promise.resolve({ vertices: [{ type: 't', name: 'v' }], edges: [] })
