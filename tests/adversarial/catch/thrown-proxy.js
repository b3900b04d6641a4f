// Throwing a Proxy whose traps loop: rendering the thrown value must not call traps.
throw new Proxy({}, { get() { while (true) {} }, ownKeys() { while (true) {} }, getPrototypeOf() { while (true) {} } });
