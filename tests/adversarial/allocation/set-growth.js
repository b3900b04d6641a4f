// A Set grown without bound with fresh 10 KB strings.
const s = new Set();
const pad = 's'.repeat(10000);
for (let i = 0; ; i++) s.add(pad + i);
