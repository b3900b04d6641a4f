/** Loads the package (once) and resolves to its API, the same object `import("jobgraph")` gives. */
export declare function load(): Promise<typeof import("./index.js")>;
/** Loads the worker resolver's entry (`jobgraph/worker`). */
export declare function loadWorker(): Promise<typeof import("./worker.js")>;
