// Script A replaces JSON.parse and JSON.stringify; script B must get the real ones.
const found = [];
if (JSON.parse('{"a": 1}').a !== 1) found.push('parse');
if (JSON.stringify({ b: 2 }) !== '{"b":2}') found.push('stringify');
({vertices: [{type: 'probe', name: 'p', found: found}], edges: []})
