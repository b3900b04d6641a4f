// `jobgraph/slim/worker`: `createWorkerResolver` without loading the WebAssembly module at import:
// call `init` of `jobgraph/slim` first (its workers get the module `init` compiled).
export * from "./worker.js";
