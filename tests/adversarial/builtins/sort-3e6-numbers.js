// Sorting 3e6 numbers (issue 9).
const a = Array.from({ length: 3e6 }, (_, i) => (i * 7919) % 1000003);
a.sort();
a.length
