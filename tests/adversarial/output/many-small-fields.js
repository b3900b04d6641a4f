// A result made of 100000 small extra fields (about 1 MB) with a 512 KiB byte limit.
const v = { type: 't', name: 'v' };
for (let i = 0; i < 100000; i++) v['f' + i] = 1;
({ vertices: [v], edges: [] })
