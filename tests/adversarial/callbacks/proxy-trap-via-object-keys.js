// A looping ownKeys proxy trap triggered by Object.keys.
Object.keys(new Proxy({}, { ownKeys() { while (true) {} } }))
