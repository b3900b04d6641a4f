// try/catch around calls that exceed the deadline: the time limit is not catchable.
function spin() { let x = 0; for (let i = 0; i < 99990; i++) x += i; return x; }
let caught = 0;
for (;;) { try { for (let i = 0; i < 1000; i++) spin(); } catch (e) { caught++; } }
