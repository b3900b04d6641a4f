// A generator whose finally block loops forever, triggered by return().
function* g() { try { yield 1; } finally { while (true) {} } }
const it = g();
it.next();
it.return();
