// Inside a native forEach callback, an endless loop whose body calls a function each iteration.
function noop() { return 0; }
[1].forEach(() => { let n = 0; while (true) { n += noop(); } });
