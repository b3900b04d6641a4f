// `jobgraph/worker` in browsers and bundlers: the worker resolver, with the WebAssembly module
// loaded by `jobgraph` (`./index.js`) and handed to each worker compiled.
import "./index.js";

export { createWorkerResolver } from "./worker-browser.js";
