// includes() on a sparse array of length 2**32 - 1 walks 4 billion holes in one native call.
new Array(2 ** 32 - 1).includes(1)
