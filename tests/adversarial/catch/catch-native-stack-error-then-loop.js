// Catching a stack-exhaustion error raised inside a built-in (JSON.stringify of a deeply nested object), then looping forever.
let deep = {};
for (let i = 0; i < 100000; i++) deep = { d: deep };
let caught = 'none';
try { JSON.stringify(deep); } catch (e) { caught = String(e); }
while (true) {}
