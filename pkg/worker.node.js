// `jobgraph/worker` in Node: the worker resolver, with the WebAssembly module loaded by `jobgraph`
// (`./index.node.js`) and handed to each worker thread compiled.
import "./index.node.js";

export { createWorkerResolver } from "./worker-node.js";
