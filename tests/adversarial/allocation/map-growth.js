// A Map grown without bound with fresh keys and objects holding 10 KB strings.
const m = new Map();
const pad = 'v'.repeat(10000);
for (let i = 0; ; i++) m.set('key-' + i, { i, text: pad + i });
