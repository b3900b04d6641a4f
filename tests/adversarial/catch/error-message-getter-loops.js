// A thrown Error whose message getter loops forever: reading the error on the host side must not run it unbounded.
const e = new Error('x');
Object.defineProperty(e, 'message', { get() { while (true) {} } });
throw e;
