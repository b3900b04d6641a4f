// An endless loop whose body calls a trivial function each iteration.
function noop() { return 0; }
let n = 0;
while (true) { n += noop(); }
