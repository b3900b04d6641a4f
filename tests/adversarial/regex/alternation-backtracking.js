// Catastrophic backtracking with overlapping alternation: /^(a|a)*$/.
/^(a|a)*$/.test('a'.repeat(40) + 'b')
