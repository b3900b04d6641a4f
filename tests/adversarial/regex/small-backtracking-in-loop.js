// Moderate backtracking (2^12 steps per call) repeated forever in a JS loop: stopped between calls.
const re = /^(a+)+$/;
const s = 'a'.repeat(12) + 'b';
let n = 0;
for (;;) { if (!re.test(s)) n++; }
