// new Array(2**32 - 1) is sparse and cheap; fill() then makes it dense.
new Array(2 ** 32 - 1).fill(0).length
