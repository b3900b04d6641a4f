// A string doubled in a loop until memory runs out.
let s = 'x';
for (;;) { s = s + s; }
