// An array element defined as a looping getter inside a vertex field.
const tags = ['a', 'b'];
Object.defineProperty(tags, 1, { get() { while (true) {} }, enumerable: true });
({ vertices: [{ type: 't', name: 'v', tags }], edges: [] })
