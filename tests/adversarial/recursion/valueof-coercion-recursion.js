// valueOf that number-coerces a fresh object with the same valueOf.
function mk(n) { return { valueOf() { return +mk(n + 1) + 1; } }; }
+mk(0)
