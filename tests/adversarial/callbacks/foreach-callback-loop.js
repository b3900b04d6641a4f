// An infinite loop inside an Array.prototype.forEach callback.
[1].forEach(() => { for (;;) {} })
