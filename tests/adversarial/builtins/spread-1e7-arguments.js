// Math.max(...new Array(1e7).fill(1)) (issue 9).
Math.max(...new Array(1e7).fill(1))
