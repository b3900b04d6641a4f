// Tampers with built-ins, then loops forever (it is stopped by the loop limit).
globalThis.halfDone = true;
Object.prototype.polluted = 'yes';
Array.prototype.sort = function () { return ['evil']; };
while (true) {}
