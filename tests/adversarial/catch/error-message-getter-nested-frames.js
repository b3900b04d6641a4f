// A thrown Error whose message getter spins over nested frames (each under the loop limit): the host reads the error after the deadline loop.
function spin() { let x = 0; for (let i = 0; i < 99990; i++) x += i; return x; }
const e = new Error('x');
Object.defineProperty(e, 'message', { get() { for (;;) spin(); } });
throw e;
