// Script A replaces user.getName and freezes user; script B must get its own user object.
const found = [];
if (user.getName() === 'admin') found.push('getName-replaced');
if (Object.isFrozen(user)) found.push('user-frozen');
if (typeof user.getName !== 'function') found.push('getName-missing');
({vertices: [{type: 'probe', name: 'p', found: found}], edges: []})
