// for-of over an infinite generator.
function* naturals() { let i = 0; while (true) yield i++; }
let s = 0;
for (const n of naturals()) { s += n; }
