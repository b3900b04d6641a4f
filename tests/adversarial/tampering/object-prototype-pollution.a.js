// Pollutes Object.prototype with a value, a toJSON hook and a setter trap.
Object.prototype.polluted = 'yes';
Object.prototype.toJSON = function () { return { vertices: [{ type: 'evil', name: 'evil' }], edges: [] }; };
Object.defineProperty(Object.prototype, 'vertices', { set(v) { globalThis.stolen = v; }, get() { return [{ type: 'evil', name: 'evil' }]; }, configurable: true });
({vertices: [{type: 'probe', name: 'p', found: []}], edges: []})
