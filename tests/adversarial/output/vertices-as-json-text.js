// A result returned as JSON text with 20000 vertices (the string path).
JSON.stringify({ vertices: new Array(20000).fill({ type: 't', name: 'v' }), edges: [] })
