// A result built from a shared sub-array doubled 60 times (a "billion laughs" DAG of 2^60 leaves).
let x = ['laugh'];
for (let i = 0; i < 60; i++) x = [x, x];
({ vertices: [{ type: 't', name: 'v', payload: x }], edges: [] })
