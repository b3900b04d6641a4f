// A retry loop that recurses until the stack is exhausted, catches, and tries again.
function r(n) { return r(n + 1); }
let attempts = 0;
while (true) { try { r(0); } catch (e) { attempts++; } }
