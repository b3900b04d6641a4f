// Object.prototype and Array.prototype polluted in the same script must not add fields to the result.
Object.prototype.injected = 'evil';
Array.prototype.extra = 'evil';
Object.defineProperty(Object.prototype, 'type', { get() { while (true) {} }, configurable: true });
({ vertices: [{ type: 't', name: 'v' }], edges: [] })
