// Catastrophic backtracking: /^(a+)+$/ on 40 a's followed by b.
/^(a+)+$/.test('a'.repeat(40) + 'b')
