// An infinite loop inside a String.prototype.replace callback.
'aaa'.replace(/a/g, () => { while (true) {} })
