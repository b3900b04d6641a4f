// A result with 60000 edge strings (about 1.5 MB) with a 1 MiB byte limit.
const vertices = [{ type: 't', name: 'a' }, { type: 't', name: 'b' }];
const edges = [];
for (let i = 0; i < 60000; i++) edges.push('a:out' + i + ' -> b:in' + i);
({ vertices, edges })
