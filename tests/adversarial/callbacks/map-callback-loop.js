// An infinite loop inside an Array.prototype.map callback.
[1, 2, 3].map(x => { while (true) {} })
