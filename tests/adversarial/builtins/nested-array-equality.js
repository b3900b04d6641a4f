// a == 1 with an array nested 100 000 deep (issue 9).
let a = [];
for (let i = 0; i < 100000; i++) a = [a];
a == 1
