// toString that string-coerces a fresh object with the same toString (boa guards same-object cycles, so each level is new).
function mk(n) { return { toString() { return '' + mk(n + 1); } }; }
'' + mk(0)
