// Recursion through Function.prototype.apply.
function f() { return f.apply(null, [1, 2, 3]); }
f()
