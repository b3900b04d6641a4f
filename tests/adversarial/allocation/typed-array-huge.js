// A Float64Array of 2^28 elements (2 GiB).
new Float64Array(2 ** 28).length
