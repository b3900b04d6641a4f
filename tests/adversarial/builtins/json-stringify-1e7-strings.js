// JSON.stringify of 1e7 strings (issue 9).
JSON.stringify(new Array(1e7).fill('abcdefgh')).length
