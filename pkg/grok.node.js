// `jobgraph/grok` in Node: the grok engine, its WebAssembly module (shipped beside this file,
// separate from the main one) read from disk at import (top-level await).
import { readFile } from "node:fs/promises";
import { initWith } from "./internal/grok-core.js";

export { parseGrok, JobgraphError } from "./internal/grok-core.js";

/** Loads the grok module again from `source` (default: the one shipped beside this file). */
export async function init(source) {
  return initWith(source ?? readFile(new URL("./wasm/jobgraph_grok_wasm_bg.wasm", import.meta.url)));
}

await init();
