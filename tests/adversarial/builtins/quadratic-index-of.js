// A quadratic string search in one native call.
'a'.repeat(1e8).indexOf('a'.repeat(1e4) + 'b')
