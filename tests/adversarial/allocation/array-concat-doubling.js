// An array doubled with concat in a loop (each step one native allocation).
let a = [1, 2, 3, 4];
for (;;) a = a.concat(a);
