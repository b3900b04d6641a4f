// A looping toString triggered by string conversion in a template literal.
`${{ toString() { while (true) {} } }}`
