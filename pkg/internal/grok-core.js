// `jobgraph/grok` over its own WebAssembly module (crate grok-wasm): grok.js (browsers,
// bundlers) and grok.node.js (Node) load the module shipped beside them and re-export this.
// The grok engine is the one of the service's `POST /v1/grok/parse/batch` and of the CLI's
// `grok:parse`: the answers are the same, byte for byte. It is a module of its own so that the
// package's main module (the resolver and the pipeline engine) stays within its size budget
// and pages that never parse grok never download it.
//
// The grok module also runs pipelines (the main module's run code, compiled with the grok
// engine): `runJob` of `slim.js` runs a graph that has a `grok-parser` on it, loading it at the
// first such run from the source the package's entry set (`setGrokSource`), unless
// `jobgraph/grok` has loaded it already. One runtime serves both.

import { JobgraphError, notInitialized } from "./errors.js";
import { createRuntime } from "./runtime.js";
import { createBindings } from "../wasm/jobgraph_grok_wasm_factory.js";

// Loaded and replaced after a trap as the main module is (`internal/runtime.js`), without a
// standby instance: a trapped grok instance is replaced by one made at once.
const grok = createRuntime({
  createBindings,
  instance: "the grok module",
  notLoaded: "the grok module is not loaded: import `jobgraph/grok`, which loads it",
  noSource: "init() needs the grok module: its URL, a Response, its bytes or a compiled WebAssembly.Module (the `jobgraph/grok` entry loads the one shipped beside it by itself)",
  standby: false,
});

/**
 * Where `grokBindings` loads the module from when a run needs it: a source of `init`, or a
 * function that returns one (called at the first need only). Set by the package's entries
 * (the `.wasm` shipped beside them) and by `init(source, {grok})` of `jobgraph/slim`.
 * @type {unknown}
 */
let lazySource;
/** The lazy load in progress. @type {Promise<void> | null} */
let lazyLoading = null;
/** Whether `lazySource` was given to `init` (rather than an entry's default). */
let explicit = false;

/**
 * Sets where the grok module comes from when a run needs it (see `lazySource`); `given`: by the
 * app (`init(…, {grok})`), so that the worker resolver's workers take it too.
 * @param {unknown} source
 * @param {boolean} [given]
 */
export function setGrokSource(source, given = false) {
  lazySource = source;
  explicit = given;
}

/**
 * The grok module's source for a worker of the worker resolver: the one given to `init` when it
 * can be posted to a worker (an address or a compiled module), else `undefined` (the worker's
 * entry then loads the module shipped beside it).
 * @returns {string | WebAssembly.Module | undefined}
 */
export function grokSourceForWorker() {
  if (!explicit) return undefined;
  if (lazySource instanceof WebAssembly.Module) return lazySource;
  // An address relative to the page would be read relative to the worker's script.
  if (typeof lazySource === "string" || lazySource instanceof URL) return new URL(lazySource, globalThis.location?.href).href;
  return undefined;
}

/**
 * The grok module's runtime (`internal/runtime.js`): `runJob` calls into it with its `call`.
 */
export const grokRuntime = grok;

/**
 * The grok module's instance in service, for a run of a graph with a `grok-parser`: the module
 * is loaded at the first need (from `setGrokSource`'s source) unless it is loaded or loading
 * already (`jobgraph/grok`, `init`). A failed load is not kept: the next run tries again.
 */
export async function grokBindings() {
  if (!grok.loaded() && !lazyLoading) {
    try {
      // Loaded or being loaded (by `jobgraph/grok`): wait for it.
      return await grok.instanceAsync();
    } catch (error) {
      if (!(error instanceof JobgraphError) || error.code !== "NOT_INITIALIZED") throw error;
    }
    if (lazySource === undefined) {
      throw notInitialized("this job has a grok-parser, which runs in the grok module: with `jobgraph/slim`, pass its source to init (`init(wasm, {grok: grokWasm})`), or import `jobgraph/grok`");
    }
    const source = typeof lazySource === "function" ? lazySource() : lazySource;
    lazyLoading = grok.init(source).finally(() => {
      lazyLoading = null;
    });
  }
  if (lazyLoading) await lazyLoading;
  return grok.instanceAsync();
}

/**
 * Loads the module from `source` (a URL, a Response or its promise, bytes, or a WebAssembly.Module).
 * @param {unknown} source
 * @returns {Promise<void>}
 */
export function initWith(source) {
  return grok.init(source);
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
  const answer = grok.call(() => grok.instance().grokParseBatch(text, line, batch));
  return options.text ? answer : JSON.parse(answer);
}

export { JobgraphError };
