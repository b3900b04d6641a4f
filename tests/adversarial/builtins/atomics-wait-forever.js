// Atomics.wait on a shared buffer with no timeout would block the thread forever.
const ia = new Int32Array(new SharedArrayBuffer(4));
Atomics.wait(ia, 0, 0)
