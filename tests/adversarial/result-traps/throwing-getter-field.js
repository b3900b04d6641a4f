// A vertex field that is a getter throwing: the result reader must not call it (reads null).
({ vertices: [{ type: 't', name: 'v', get evil() { throw new Error('read me'); } }], edges: [] })
