// A result whose vertices are a sparse array of length 2**32 - 1.
const vertices = [];
vertices.length = 2 ** 32 - 1;
({ vertices, edges: [] })
