// `require("jobgraph")` in Node (CommonJS): the package is an ES module that loads its
// WebAssembly module with top-level await, which `require` cannot wait for, so this entry
// hands out a promise of it: `const jobgraph = await require("jobgraph").load();`.
"use strict";

/** Loads the package (once) and resolves to its API, the same object `import("jobgraph")` gives. */
exports.load = () => import("./index.node.js");
/** Loads the worker resolver's entry (`jobgraph/worker`). */
exports.loadWorker = () => import("./worker.node.js");
