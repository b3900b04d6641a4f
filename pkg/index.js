// `jobgraph` in browsers and bundlers: the API of `./slim.js`, with the WebAssembly module shipped
// beside this file loaded at import (top-level await). The module's address is written as a
// literal `new URL("./…", import.meta.url)`, the form Vite, webpack, Rollup and Parcel rewrite to
// the file they emit; served unbundled, it is the file next to this one.
import { init as initWith } from "./slim.js";

export * from "./slim.js";

/**
 * Loads the WebAssembly module again from `source` (default: the module shipped beside this file),
 * replacing the instance in service. Not needed before other calls: importing this module loads it.
 */
export function init(source = new URL("./wasm/jobgraph_wasm_bg.wasm", import.meta.url)) {
  return initWith(source);
}

await init();
