// toJSON methods on the result (looping) must not be called; function-valued fields are dropped.
({ toJSON() { while (true) {} }, vertices: [{ type: 't', name: 'v', toJSON() { for (;;) {} }, f: function () {} }], edges: [] })
