// Script A tampers with built-ins and is then stopped by the loop limit mid-run; script B must see pristine built-ins.
const found = [];
if ('halfDone' in globalThis) found.push('halfDone');
if (Object.prototype.polluted !== undefined) found.push('polluted');
if ([3, 1, 2].sort().join() !== '1,2,3') found.push('sort');
({vertices: [{type: 'probe', name: 'p', found: found}], edges: []})
