// Function.prototype.apply with an array-like of length 2**32 - 1 (a 4-billion-argument list).
Math.max.apply(null, { length: 2 ** 32 - 1 })
