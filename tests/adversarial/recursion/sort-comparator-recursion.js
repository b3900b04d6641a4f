// A sort comparator that sorts again.
const a = [3, 1, 2];
function cmp(x, y) { a.slice().sort(cmp); return x - y; }
a.sort(cmp)
