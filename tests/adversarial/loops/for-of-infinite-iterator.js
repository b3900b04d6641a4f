// for-of over a hand-written infinite iterator object.
const it = { [Symbol.iterator]() { return { next() { return { value: 1, done: false }; } }; } };
let s = 0;
for (const x of it) { s += x; }
