// Replaces user.getName and freezes user.
user.getName = () => 'admin';
Object.freeze(user);
({vertices: [{type: 'probe', name: 'p', found: []}], edges: []})
