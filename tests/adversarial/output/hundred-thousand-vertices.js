// A result with 100000 vertices.
({ vertices: new Array(100000).fill({ type: 't', name: 'v' }), edges: [] })
