// Recursion that goes through a native Array.prototype.map at every level.
function f(n) { return [n].map(x => f(x + 1)); }
f(0)
