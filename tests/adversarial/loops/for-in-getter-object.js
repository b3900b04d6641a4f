// for-in over an object whose enumerable getters add new keys, inside an endless outer loop.
const o = {};
let n = 0;
for (let i = 0; i < 20; i++) {
  Object.defineProperty(o, 'k' + i, { enumerable: true, get() { o['g' + (n++)] = n; return n; } });
}
let total = 0;
while (true) {
  for (const k in o) { total += typeof o[k] === 'number' ? 1 : 0; }
}
