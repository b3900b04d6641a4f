// The top-level vertices property is a looping getter (reads null, so the graph is invalid).
({ get vertices() { for (;;) {} }, edges: [] })
