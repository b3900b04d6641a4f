// One huge allocation: 'x'.repeat(2**30).
'x'.repeat(2 ** 30).length
