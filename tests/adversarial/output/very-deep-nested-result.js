// A result nested 100000 levels deep (once overflowed the native stack of the reader).
let x = [];
for (let i = 0; i < 100000; i++) x = [x];
({ vertices: [{ type: 't', name: 'v', payload: x }], edges: [] })
