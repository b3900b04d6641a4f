// new Array(1e8).fill(0) (issue 9).
new Array(1e8).fill(0).length
