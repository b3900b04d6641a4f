// Exponential backtracking with /^(a|aa)+$/ on 80 a's followed by b.
'a'.repeat(80).concat('b').replace(/^(a|aa)+$/, 'x')
