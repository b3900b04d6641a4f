// Catching the RangeError of runaway recursion, then looping forever.
function r() { return r() + 1; }
let caught = null;
try { r(); } catch (e) { caught = e; }
while (true) {}
