// Defines globals of every kind.
var leakVar = 1;
function leakFn() { return 'leak'; }
let leakLet = 2;
globalThis.leakProp = 3;
Object.defineProperty(globalThis, 'leakLocked', { value: 4, writable: false, configurable: false });
({vertices: [{type: 'probe', name: 'p', found: []}], edges: []})
