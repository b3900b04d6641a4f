// Recursion that catches the error at every level and recurses again.
function f(n) { try { return f(n + 1); } catch (e) { return f(n + 1); } }
f(0)
