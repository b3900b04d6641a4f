// Bracket nesting one level over a limit of 8.
[[[[[[[[[]]]]]]]]]
