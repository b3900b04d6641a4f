// A generator that delegates to itself with yield*.
function* g() { yield* g(); }
g().next()
