// Script A replaces Array.prototype.map; script B must see the native map.
const found = [];
if ([1, 2].map(x => x * 2).join() !== '2,4') found.push('map-broken');
if (!String(Array.prototype.map).includes('native code')) found.push('map-replaced');
if (Array.prototype.pwned !== undefined) found.push('array-prototype-pwned');
({vertices: [{type: 'probe', name: 'p', found: found}], edges: []})
