// Replaces JSON.parse and JSON.stringify.
JSON.parse = () => ({ a: 'evil' });
JSON.stringify = () => 'evil';
({vertices: [{type: 'probe', name: 'p', found: []}], edges: []})
