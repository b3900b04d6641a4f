// new Array(1e8).join('x') (issue 9).
new Array(1e8).join('x').length
