// Script A replaces Error.prototype.toString, RegExp.prototype.exec and String.prototype.replace; script B must see the originals.
const found = [];
if (String(new TypeError('t')) !== 'TypeError: t') found.push('error-toString');
if (!/b/.test('abc')) found.push('regexp-exec');
if ('abc'.replace('b', 'x') !== 'axc') found.push('replace');
({vertices: [{type: 'probe', name: 'p', found: found}], edges: []})
