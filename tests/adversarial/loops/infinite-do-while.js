// An infinite do-while loop that does some arithmetic.
let x = 0;
do { x = (x + 1) | 0; } while (true);
