// join() of a sparse array of length 2**32 - 1 builds a 4 GB string in one call.
new Array(2 ** 32 - 1).join('x').length
