// toJSON that calls JSON.stringify on itself.
const o = { toJSON() { return JSON.stringify(this); } };
JSON.stringify(o)
