// A getter that reads itself.
const o = { get x() { return this.x; } };
o.x
