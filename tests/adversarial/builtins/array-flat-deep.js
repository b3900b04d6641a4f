// Array.prototype.flat(Infinity) on an array nested 1 000 000 levels deep (native recursion).
let a = [1];
for (let i = 0; i < 1000000; i++) a = [a];
a.flat(Infinity).length
