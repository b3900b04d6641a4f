// `jobgraph/grok` over its own WebAssembly module (crate grok-wasm): grok.js (browsers,
// bundlers) and grok.node.js (Node) load the module shipped beside them and re-export this.
// The grok engine is the one of the service's `POST /v1/grok/parse/batch` and of the CLI's
// `grok:parse`: the answers are the same, byte for byte. It is a module of its own so that the
// package's main module (the resolver and the pipeline engine) stays within its size budget
// and pages that never parse grok never download it.

import { JobgraphError } from "./slim.js";
import { createBindings } from "./wasm/jobgraph_grok_wasm_factory.js";

/** The compiled module, once `init` has succeeded. */
let wasmModule = null;
/** The instance in service (replaced after a trap). */
let raw = null;

/** Loads the module from `source` (a URL, a Response or its promise, bytes, or a WebAssembly.Module). */
export async function initWith(source) {
  let given = await source;
  if (typeof given === "string" || given instanceof URL) given = await fetch(given);
  if (typeof Response !== "undefined" && given instanceof Response) {
    if (!given.ok) throw loadError(`fetching ${given.url} failed: HTTP ${given.status}`);
    given = await given.arrayBuffer();
  }
  try {
    wasmModule = given instanceof WebAssembly.Module ? given : await WebAssembly.compile(given);
  } catch (error) {
    throw loadError(`compiling it failed (${error?.message ?? error})`);
  }
  raw = null;
}

function loadError(message) {
  const prefix = "Could not load the WebAssembly module";
  return new JobgraphError({ code: "WASM_LOAD_FAILED", prefix, message: `${prefix}: ${message}` });
}

function instance() {
  if (raw) return raw;
  if (!wasmModule) {
    throw new JobgraphError({ code: "NOT_INITIALIZED", prefix: "Invalid argument", message: "Invalid argument: the grok module is not loaded: import `jobgraph/grok`, which loads it" });
  }
  const bindings = createBindings();
  bindings.initSync({ module: wasmModule });
  raw = bindings;
  return raw;
}

/**
 * Tries grok parsing rules on sample lines, as `POST /v1/grok/parse/batch` does (the same
 * answer): `{results: [{match, matchingRuleName?, attributes, tags, topLevelFields, error?}]}`.
 * A rule that does not compile throws `INVALID_GROK_RULE` with the rule's field (`pointer`),
 * `line` and `column`. Each sample may take `lineTimeLimitMs` (default 100) and all of them
 * `batchTimeLimitMs` (default 5000); a sample past either gets `match: false` and `error`.
 * With `text: true` the answer is its JSON text, byte for byte what the service sends.
 */
export function parseGrok(request, options = {}) {
  const text = JSON.stringify(request ?? {});
  const line = Number(options.lineTimeLimitMs ?? 100);
  const batch = Number(options.batchTimeLimitMs ?? 5000);
  let answer;
  try {
    answer = instance().grokParseBatch(text, line, batch);
  } catch (error) {
    if (typeof error === "string") throw new JobgraphError(JSON.parse(error));
    if (error instanceof WebAssembly.RuntimeError || error instanceof RangeError) {
      raw = null; // the next call runs on a fresh instance
      throw new JobgraphError({ code: "WASM_TRAP", prefix: "JavaScript execution failed", message: `JavaScript execution failed: the grok module trapped (${error.message}); the next call runs on a fresh instance` });
    }
    throw error;
  }
  return options.text ? answer : JSON.parse(answer);
}

export { JobgraphError };
