// Array.prototype.sort with a comparator that throws a non-Error object whose toString loops.
[2, 1].sort(() => { throw { toString() { while (true) {} } }; })
