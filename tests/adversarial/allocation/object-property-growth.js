// One object given new properties without bound.
const o = {};
const pad = 'o'.repeat(10000);
for (let i = 0; ; i++) o['p' + i] = pad + i;
