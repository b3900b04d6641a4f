// Script A freezes Object.prototype and Array.prototype; script B must still be able to extend them.
const found = [];
if (Object.isFrozen(Object.prototype)) found.push('object-frozen');
if (Object.isFrozen(Array.prototype)) found.push('array-frozen');
({vertices: [{type: 'probe', name: 'p', found: found}], edges: []})
