// vertices is a proxy around an array whose traps loop.
const loop = () => { for (;;) {} };
({ vertices: new Proxy([{ type: 't', name: 'v' }], { get: loop, ownKeys: loop, getOwnPropertyDescriptor: loop }), edges: [] })
