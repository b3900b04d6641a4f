// Script A pollutes Object.prototype (including setters and toJSON); script B must see a clean Object.prototype.
const found = [];
const o = {};
if ('polluted' in o) found.push('polluted');
if ('toJSON' in o) found.push('toJSON');
if ('vertices' in o) found.push('vertices');
if (Object.getOwnPropertyNames(Object.prototype).some(k => !['constructor', '__defineGetter__', '__defineSetter__', 'hasOwnProperty', '__lookupGetter__', '__lookupSetter__', 'isPrototypeOf', 'propertyIsEnumerable', 'toString', 'valueOf', '__proto__', 'toLocaleString'].includes(k))) found.push('extra-keys');
({vertices: [{type: 'probe', name: 'p', found: found}], edges: []})
