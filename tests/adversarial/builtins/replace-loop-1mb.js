// A replace loop on a 1 MB string (issue 9).
let s = 'x'.repeat(2 ** 20);
for (let i = 0; i < 1e6; i++) s = s.replace('x', 'y');
s.length
