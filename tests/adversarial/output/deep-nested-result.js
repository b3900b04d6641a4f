// A result nested 200 levels deep.
let x = {};
for (let i = 0; i < 200; i++) x = { x };
({ vertices: [{ type: 't', name: 'v', payload: x }], edges: [] })
