// Two sequential loops of 6000 iterations each with a loop limit of 10000: the count is per call frame, so they add up.
let n = 0;
for (let i = 0; i < 6000; i++) n++;
for (let i = 0; i < 6000; i++) n++;
({vertices: [{type: 'probe', name: 'p', found: [n]}], edges: []})
