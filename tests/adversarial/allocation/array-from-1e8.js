// Array.from({length: 1e8}) (issue 9).
Array.from({ length: 1e8 }).length
