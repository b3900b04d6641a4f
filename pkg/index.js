// `jobgraph` in browsers and bundlers: the API of `./slim.js`, with the WebAssembly module shipped
// beside this file loaded at import (top-level await). The module's address is written as a
// literal `new URL("./…", import.meta.url)`, the form Vite, webpack, Rollup and Parcel rewrite to
// the file they emit; served unbundled, it is the file next to this one.
import { init as initWith } from "./slim.js";
import { setGrokSource } from "./internal/grok-core.js";

export * from "./slim.js";

// The grok module, which `runJob` loads at the first job with a `grok-parser` (never before):
// its address written literally too, so that bundlers emit it.
setGrokSource(() => new URL("./wasm/jobgraph_grok_wasm_bg.wasm", import.meta.url));

/**
 * Loads the WebAssembly module again from `source` (default: the module shipped beside this file),
 * replacing the instance in service. Not needed before other calls: importing this module loads it.
 */
export function init(source = new URL("./wasm/jobgraph_wasm_bg.wasm", import.meta.url), options = {}) {
  return initWith(source, options);
}

await init();
