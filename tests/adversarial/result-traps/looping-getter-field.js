// A vertex field that is a getter looping forever: the result reader must not call it (reads null).
({ vertices: [{ type: 't', name: 'v', get evil() { while (true) {} } }], edges: [] })
