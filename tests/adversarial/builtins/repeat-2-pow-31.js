// 'x'.repeat(2**31): a string longer than the engine allows.
'x'.repeat(2 ** 31).length
