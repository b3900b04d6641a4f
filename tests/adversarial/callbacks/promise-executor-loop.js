// An infinite loop in a Promise executor (run synchronously).
new Promise(() => { while (true) {} })
