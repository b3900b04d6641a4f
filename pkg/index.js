// The `jobgraph` package: a thin, typed wrapper over the WebAssembly build of jobgraph-core.
// Documents cross into wasm as JSON text, so results are exactly the native resolver's.

import { createBindings } from "./wasm/jobgraph_wasm_factory.js";

const WASM = "./wasm/jobgraph_wasm_bg.wasm";
const isNode = typeof process !== "undefined" && process.versions != null && process.versions.node != null;
/** Where `createWorkerResolver` leaves the compiled module for the workers it starts. */
const SHARED_MODULE = Symbol.for("jobgraph.wasmModule");

// Instances: `raw` serves every call; `standby` is a second one, instantiated ahead, that takes
// over synchronously when `raw` traps (a trapped instance is never called again: its shadow
// stack pointer, allocator and engine state are wherever the trap left them). A new standby is
// then instantiated in the background from the module compiled once at import.

async function compile() {
  const shared = globalThis[SHARED_MODULE];
  if (shared instanceof WebAssembly.Module) return shared;
  const url = new URL(WASM, import.meta.url);
  if (isNode) {
    const { readFile } = await import("node:fs/promises");
    return WebAssembly.compile(await readFile(url));
  }
  const response = fetch(url);
  if (typeof WebAssembly.compileStreaming === "function") {
    try {
      return await WebAssembly.compileStreaming(response);
    } catch {
      // Served without `application/wasm`: compile the bytes instead.
    }
  }
  return WebAssembly.compile(await (await response).arrayBuffer());
}

const wasmModule = await compile();

/** The compiled module (shared with the workers of `createWorkerResolver`; not public API). */
export function compiledModule() {
  return wasmModule;
}

async function instantiate() {
  const bindings = createBindings();
  await bindings.default({ module_or_path: wasmModule });
  return bindings;
}

function instantiateNow() {
  const bindings = createBindings();
  bindings.initSync({ module: wasmModule });
  return bindings;
}

let raw = await instantiate();
let standby = null;
let refilling = null;
/** Instances taken into service so far (the first one included). */
let generation = 1;

function refill() {
  if (standby || refilling) return;
  refilling = instantiate()
    .then((bindings) => {
      standby = bindings;
    })
    .catch(() => {})
    .finally(() => {
      refilling = null;
    });
}
refill();

/**
 * Takes a healthy instance into service in place of the trapped one: the standby when it is
 * ready, else one instantiated now (synchronously, from the compiled module); if even that is
 * refused, none until the next standby is ready (see `instance()`).
 */
function replaceTrapped() {
  generation += 1;
  if (standby) {
    raw = standby;
    standby = null;
  } else {
    try {
      raw = instantiateNow();
    } catch {
      raw = null;
    }
  }
  refill();
}

/** The instance in service; throws `WASM_TRAP` in the rare moment none is ready (sync calls). */
function instance() {
  if (raw) return raw;
  try {
    raw = instantiateNow();
    return raw;
  } catch (error) {
    throw new JobgraphError({
      code: "WASM_TRAP",
      prefix: "JavaScript execution failed",
      message: `JavaScript execution failed: no healthy WebAssembly instance is ready yet after a trap (${error?.message ?? error}); retry, or await an asynchronous call`,
    });
  }
}

/** As `instance()`, waiting for the standby when none can be made synchronously. */
async function instanceAsync() {
  while (!raw) {
    if (standby) {
      raw = standby;
      standby = null;
      refill();
    } else {
      refill();
      await refilling;
      if (!standby && !raw) return instance();
    }
  }
  return raw;
}

/** Replaces the instance in service with a fresh one (never needed after a trap: that is automatic). */
export async function reload() {
  const bindings = await instantiate();
  generation += 1;
  raw = bindings;
}

/** Every failure of this package. `message` starts with the service's contract prefix. */
export class JobgraphError extends Error {
  constructor(info) {
    super(info.message);
    this.name = "JobgraphError";
    this.code = info.code;
    this.prefix = info.prefix;
    this.templateId = info.templateId ?? null;
    this.templateVersion = info.templateVersion ?? null;
    this.operationPath = info.operationPath ?? [];
    this.line = info.line ?? null;
    this.column = info.column ?? null;
    this.pointer = info.pointer ?? null;
    this.problems = info.problems ?? [];
    this.limit = info.limit ?? null;
  }
}

function rethrow(error) {
  if (error && typeof error === "object" && typeof error.code === "string" && typeof error.message === "string" && !(error instanceof Error)) {
    throw new JobgraphError(error);
  }
  if (error instanceof JobgraphError) throw error;
  // A trap (out of memory, stack overflow in linear memory) or the engine's own stack limit
  // (RangeError thrown through wasm frames) leaves the instance unusable.
  if (error instanceof WebAssembly.RuntimeError || error instanceof RangeError) {
    replaceTrapped();
    const message = `JavaScript execution failed: the WebAssembly instance trapped (${error.message}); the next call runs on a fresh instance`;
    throw new JobgraphError({ code: "WASM_TRAP", prefix: "JavaScript execution failed", message });
  }
  throw error;
}

function call(fn) {
  try {
    return fn();
  } catch (error) {
    rethrow(error);
  }
}

/** The arguments of `resolveJson` for `resolve(job, options)`. */
function resolveArguments(job, options) {
  const { templates, fetchTemplate, ...rest } = options ?? {};
  // `limits.maxOperations` was the budget's place before it became a resolution option.
  if (rest.maxOperations === undefined && rest.limits?.maxOperations !== undefined) {
    const { maxOperations, ...limits } = rest.limits;
    rest.maxOperations = maxOperations;
    rest.limits = limits;
  }
  const list = fetchTemplate ? undefined : JSON.stringify(templates ?? []);
  return [JSON.stringify(job), list, fetchTemplate, rest];
}

/**
 * Runs one resolution to its end: `begin(fetchTemplate)` returns the module's `ResolveCall`,
 * polled here, with the promises of the template fetches awaited between polls. Every poll is
 * a call from this function, so a trap anywhere in the resolution (after a fetch too) is
 * thrown here and becomes `WASM_TRAP`, never an uncaught exception in a microtask.
 */
async function drive(begin, fetchTemplate) {
  const inflight = new Set();
  const fetch = fetchTemplate
    ? (id, version) => {
        // A native promise: the module awaits this very object; a synchronous throw rejects it.
        const promise = (async () => fetchTemplate(id, version))();
        const settled = promise.then(
          () => {},
          () => {},
        );
        inflight.add(settled);
        settled.then(() => inflight.delete(settled));
        return promise;
      }
    : undefined;
  try {
    const call = begin(fetch);
    try {
      for (let idle = 0; ; ) {
        const result = call.poll();
        if (result !== undefined) return result;
        if (inflight.size > 0) {
          // The module reacts to a fetch's promise itself, this wait to a promise derived from
          // it: by the time the wait ends, the module holds the outcome.
          idle = 0;
          await Promise.race(inflight);
        } else if (idle++ < 2) {
          await new Promise((wake) => setTimeout(wake, 0));
        } else {
          throw new JobgraphError({
            code: "UNEXPECTED",
            prefix: "Unexpected error",
            message: "Unexpected error: the resolution waits for no template fetch (please report this)",
          });
        }
      }
    } finally {
      try {
        call.free();
      } catch {
        // A trapped instance: it is replaced, its memory with it.
      }
    }
  } catch (error) {
    rethrow(error);
  }
}

/** Resolves every template operation of a job (or a bare graph). */
export async function resolve(job, options = {}) {
  const [text, list, fetchTemplate, rest] = resolveArguments(job, options);
  const bindings = await instanceAsync();
  return drive((fetch) => bindings.resolveJson(text, list, fetch, rest), fetchTemplate);
}

const MAX_USIZE = 2 ** 32 - 1; // wasm32

function bound(value, name) {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 0 || value > MAX_USIZE) {
    const message = `Invalid argument: createResolver: ${name} must be an integer from 0 to ${MAX_USIZE}, got ${JSON.stringify(value) ?? String(value)}`;
    throw new JobgraphError({ code: "INVALID_ARGUMENT", prefix: "Invalid argument", message });
  }
  return value;
}

/**
 * A resolver that keeps the result of each template execution across calls, for live
 * previews: after one operation's inputs change, re-resolving runs that operation's script
 * only. Scripts that read the clock or `Math.random` are never kept.
 */
export function createResolver(options = {}) {
  const maxEntries = bound(options?.maxEntries, "maxEntries");
  const maxBytes = bound(options?.maxBytes, "maxBytes");
  // A CachedResolver lives in one wasm instance: after a trap, a new one (with an empty cache)
  // is made on the instance that took over.
  let owner = null;
  let cached = null;
  const current = (bindings) => {
    if (owner !== bindings) {
      cached = new bindings.CachedResolver(maxEntries, maxBytes);
      owner = bindings;
    }
    return cached;
  };
  call(() => current(instance()));
  return {
    async resolve(job, resolveOptions = {}) {
      const [text, list, fetchTemplate, rest] = resolveArguments(job, resolveOptions);
      const bindings = await instanceAsync();
      return drive((fetch) => current(bindings).resolveJson(text, list, fetch, rest), fetchTemplate);
    },
    clear() {
      call(() => current(instance()).clear());
    },
    stats() {
      return call(() => current(instance()).stats());
    },
  };
}

/** Runs one template's script with input values, as `POST /v1/templates/test` does. */
export function testTemplate(template, input = {}, options = {}) {
  const args = [JSON.stringify(template), JSON.stringify(input.values ?? {}), { ...options, isDraft: input.isDraft ?? false }];
  return call(() => instance().testTemplateJson(...args));
}

/** Every problem of a graph, each with its JSON pointer; `[]` when valid. */
export function validateJobGraph(graph) {
  const text = JSON.stringify(graph ?? null);
  return call(() => instance().validateJobGraphJson(text));
}

/**
 * Every problem of `values` against an input schema (JSON Schema 2020-12, as a template's
 * `inputSchema`), each with its JSON pointer; `[]` when valid. Defaults are not filled.
 */
export function validateInputs(inputSchema, values) {
  return call(() => instance().validateInputsJson(JSON.stringify(inputSchema ?? true), JSON.stringify(values ?? null)));
}

/** Parses `from[:port] -> to[:port]`. */
export function parseEdge(text) {
  const value = String(text);
  return call(() => instance().parseEdge(value));
}

/** Writes an edge canonically: `from[:port] -> to[:port]`. */
export function formatEdge(edge) {
  return call(() => instance().formatEdge(edge));
}

/** How many WebAssembly instances have served calls so far: 1 until the first trap or `reload()`. */
export function instanceGeneration() {
  return generation;
}
