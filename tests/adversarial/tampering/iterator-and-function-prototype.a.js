// Replaces Array.prototype[Symbol.iterator], Function.prototype.call and Promise.prototype.then.
Array.prototype[Symbol.iterator] = function* () { yield 'evil'; };
Function.prototype.call = function () { return 'evil'; };
Promise.prototype.then = function () { return 'evil'; };
({vertices: [{type: 'probe', name: 'p', found: []}], edges: []})
