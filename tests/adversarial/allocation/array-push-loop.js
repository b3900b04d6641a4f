// An array grown by push in an endless loop, with a fresh 100 KB typed array and a small array each iteration.
const a = [];
for (let i = 0; ; i++) a.push(new Uint8Array(100000), [i, i + 1]);
