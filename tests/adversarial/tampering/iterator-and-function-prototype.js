// Script A replaces Array.prototype[Symbol.iterator], Function.prototype.call and Promise.prototype.then; script B must see the originals.
const found = [];
if ([...[1, 2]].join() !== '1,2') found.push('iterator');
if (Math.max.call(null, 1, 5) !== 5) found.push('call');
if (!String(Promise.prototype.then).includes('native code')) found.push('then');
({vertices: [{type: 'probe', name: 'p', found: found}], edges: []})
