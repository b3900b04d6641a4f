// A result that contains itself.
const v = { type: 't', name: 'v' };
v.self = v;
({ vertices: [v], edges: [] })
