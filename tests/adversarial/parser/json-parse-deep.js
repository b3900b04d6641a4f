// JSON.parse of a 100000-level nested array built at run time.
JSON.parse('['.repeat(100000) + ']'.repeat(100000))
