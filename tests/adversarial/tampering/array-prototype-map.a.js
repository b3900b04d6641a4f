// Replaces Array.prototype.map and adds Array.prototype.pwned.
Array.prototype.map = function () { return ['pwned']; };
Array.prototype.pwned = true;
({vertices: [{type: 'probe', name: 'p', found: []}], edges: []})
