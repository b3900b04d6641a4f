// Symbol.toPrimitive that coerces its own object again.
const o = { [Symbol.toPrimitive]() { return '' + this; } };
'' + o
