// A string doubled forever, default limits (issue 9).
let s = 'x';
while (true) s = s + s;
