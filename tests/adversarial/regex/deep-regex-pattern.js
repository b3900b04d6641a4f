// A regular expression built at run time with 100000 nested groups (the source nesting check never sees it).
new RegExp('('.repeat(100000) + 'a' + ')'.repeat(100000)).test('a')
