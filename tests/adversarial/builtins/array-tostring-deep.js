// String() of an array nested 100000 levels deep (join recursing through toString).
let a = [1];
for (let i = 0; i < 100000; i++) a = [a];
String(a).length
