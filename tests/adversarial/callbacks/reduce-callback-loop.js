// An infinite loop inside an Array.prototype.reduce callback.
[1, 2].reduce((a, b) => { do {} while (true); }, 0)
