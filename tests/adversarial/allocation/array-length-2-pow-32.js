// new Array(2**32): an invalid array length.
new Array(2 ** 32).length
