// A looping getter triggered by Object.assign.
Object.assign({}, { get x() { for (;;) {} } })
