// Array.from over an array-like of length 1e9 with a mapper: one native call with a billion callbacks.
Array.from({ length: 1e9 }, (_, i) => i)
