// Nested stars /(a*)*b/, unanchored, on 30 a's with no b.
/(a*)*b/.test('a'.repeat(30))
