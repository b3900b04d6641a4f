// The main WebAssembly module's instances (the resolver and the pipeline engine): one runtime
// (`runtime.js`) shared by `slim.js`, which serves the package's calls from it, and the worker
// resolver (`worker-core.js`), which hands its compiled module to each worker. Internal: no
// entry of the package exports it.

import { createBindings } from "../wasm/jobgraph_wasm_factory.js";
import { createRuntime } from "./runtime.js";

export const main = createRuntime({
  createBindings,
  instance: "the WebAssembly instance",
  notLoaded: "the WebAssembly module is not loaded yet: with `jobgraph/slim`, `await init(wasm)` first (the `jobgraph` entry loads it by itself)",
  noSource: "init() needs the module: its URL, a Response, its bytes or a compiled WebAssembly.Module (the `jobgraph` entry loads the one shipped beside it by itself)",
  standby: true,
});
