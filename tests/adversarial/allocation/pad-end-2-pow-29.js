// 'x'.padEnd(2**29) (issue 9).
'x'.padEnd(2 ** 29).length
