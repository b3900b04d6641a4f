// `jobgraph` in Node: the API of `./slim.js`, with the WebAssembly module shipped beside this file
// read from disk at import (top-level await).
import { readFile } from "node:fs/promises";
import { init as initWith } from "./slim.js";
import { setGrokSource } from "./internal/grok-core.js";

export * from "./slim.js";

// The grok module, which `runJob` reads at the first job with a `grok-parser` (never before).
setGrokSource(() => readFile(new URL("./wasm/jobgraph_grok_wasm_bg.wasm", import.meta.url)));

/**
 * Loads the WebAssembly module again from `source` (default: the module shipped beside this file),
 * replacing the instance in service. Not needed before other calls: importing this module loads it.
 */
export async function init(source, options = {}) {
  return initWith(source ?? readFile(new URL("./wasm/jobgraph_wasm_bg.wasm", import.meta.url)), options);
}

await init();
