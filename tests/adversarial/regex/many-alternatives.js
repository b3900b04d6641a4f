// 100 000 alternatives in one regular expression.
new RegExp('a|'.repeat(100000) + 'a').test('b')
