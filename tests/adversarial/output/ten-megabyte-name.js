// A vertex whose name is 10 MB long.
let name = 'n';
while (name.length < 10 * 1024 * 1024) name += name;
({ vertices: [{ type: 't', name }], edges: [] })
