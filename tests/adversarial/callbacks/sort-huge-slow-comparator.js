// Sorting a 1e6-element array with a slow comparator: one native sort call with ~2e7 comparator calls.
const a = Array.from({ length: 1e6 }, (_, i) => (i * 7919) % 1000003);
a.sort((x, y) => { let s = 0; for (let i = 0; i < 100; i++) s += i; return x - y; });
