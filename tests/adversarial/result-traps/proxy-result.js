// The whole result is a proxy around a valid graph (reads {}, so the graph is invalid).
new Proxy({ vertices: [{ type: 't', name: 'v' }], edges: [] }, { get() { while (true) {} }, ownKeys() { while (true) {} } })
