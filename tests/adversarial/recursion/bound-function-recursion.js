// Recursion through a bound function.
let g;
function f(x) { return g(x + 1); }
g = f.bind(null);
g(0)
