// Array.from({length: 1e9}) without a mapper.
Array.from({ length: 1e9 }).length
