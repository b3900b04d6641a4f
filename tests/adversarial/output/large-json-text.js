// A 2 MB JSON text result with a 1 MiB byte limit (string path, checked before parsing).
let pad = 'p';
while (pad.length < 2 * 1024 * 1024) pad += pad;
JSON.stringify({ vertices: [{ type: 't', name: 'v', pad }], edges: [] })
