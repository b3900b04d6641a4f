// `jobgraph/grok` in browsers and bundlers: the grok engine, its WebAssembly module (shipped
// beside this file, separate from the main one) loaded at import (top-level await).
import { initWith } from "./internal/grok-core.js";

export { parseGrok, JobgraphError } from "./internal/grok-core.js";

/** Loads the grok module again from `source` (default: the one shipped beside this file). */
export function init(source = new URL("./wasm/jobgraph_grok_wasm_bg.wasm", import.meta.url)) {
  return initWith(source);
}

await init();
