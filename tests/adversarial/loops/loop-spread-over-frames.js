// An endless loop that calls a function running just under the loop limit each time (nested frames reset the count).
function spin() { let x = 0; for (let i = 0; i < 99990; i++) { x += i; } return x; }
let acc = 0;
while (true) { acc += spin(); }
