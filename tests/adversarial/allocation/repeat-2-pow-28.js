// 'x'.repeat(2**28) (issue 9).
'x'.repeat(2 ** 28).length
