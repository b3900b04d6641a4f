// JSON.stringify of an object nested 100000 levels deep.
let o = {};
for (let i = 0; i < 100000; i++) o = { o };
JSON.stringify(o).length
