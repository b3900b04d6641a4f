// A vertex field that is a proxy whose every trap loops: the reader must not call traps (reads {}).
const loop = () => { while (true) {} };
const evil = new Proxy({ a: 1 }, { get: loop, ownKeys: loop, getOwnPropertyDescriptor: loop, has: loop, getPrototypeOf: loop });
({ vertices: [{ type: 't', name: 'v', evil }], edges: [] })
