// `jobgraph/slim`: the package's API without loading the WebAssembly module. Call
// `await init(wasm)` once first (a URL, a Response, bytes or a compiled WebAssembly.Module);
// `jobgraph` (index.js / index.node.js) is this module plus a load of the module shipped beside it.
// Documents cross into wasm as JSON text, so results are exactly the native resolver's.

import { createBindings } from "./wasm/jobgraph_wasm_factory.js";

// Instances: `raw` serves every call; `standby` is a second one, instantiated ahead, that takes
// over synchronously when `raw` traps (a trapped instance is never called again: its shadow
// stack pointer, allocator and engine state are wherever the trap left them). A new standby is
// then instantiated in the background from the module compiled once by `init`.

/** The compiled module, once `init` has succeeded. */
let wasmModule = null;
/** The `init` in progress (the latest one), so that asynchronous calls made meanwhile wait for it. */
let loading = null;

const LOAD_PREFIX = "Could not load the WebAssembly module";

function loadError(message) {
  return new JobgraphError({ code: "WASM_LOAD_FAILED", prefix: LOAD_PREFIX, message: `${LOAD_PREFIX}: ${message}` });
}

/** Where `source` came from, for error messages. */
function describe(source) {
  if (typeof source === "string" || source instanceof URL) return String(source);
  if (typeof Response !== "undefined" && source instanceof Response) return source.url || "the Response given to init()";
  return "the bytes given to init()";
}

/** Compiles what `init` was given: a module, bytes, a Response (or its promise), a URL. */
async function compileFrom(given) {
  let source;
  try {
    source = await given;
  } catch (error) {
    throw error instanceof JobgraphError ? error : loadError(`reading it failed (${error?.message ?? error})`);
  }
  if (source instanceof WebAssembly.Module) return source;
  let bytes = source;
  if (typeof source === "string" || source instanceof URL) {
    let response;
    try {
      response = await fetch(source);
    } catch (error) {
      throw loadError(`fetching ${source} failed (${error?.message ?? error}); pass init() the module's URL, a Response, its bytes or a compiled WebAssembly.Module`);
    }
    return compileFrom(response);
  }
  if (typeof Response !== "undefined" && source instanceof Response) {
    if (!source.ok) {
      throw loadError(`${describe(source)} answered HTTP ${source.status}: the file is not there (with a bundler, see "Use with a bundler" in the package's README; to host it yourself, pass its URL to init())`);
    }
    const type = source.headers.get("content-type") ?? "";
    if (typeof WebAssembly.compileStreaming === "function" && type.split(";")[0].trim() === "application/wasm") {
      try {
        return await WebAssembly.compileStreaming(source);
      } catch (error) {
        throw loadError(`${describe(source)} is not a valid WebAssembly module (${error?.message ?? error})`);
      }
    }
    bytes = await source.arrayBuffer();
  }
  if (!(bytes instanceof ArrayBuffer) && !ArrayBuffer.isView(bytes)) {
    throw loadError(`init() takes a URL, a Response (or a promise of one), an ArrayBuffer or typed array, or a WebAssembly.Module; got ${source === null ? "null" : typeof source}`);
  }
  try {
    return await WebAssembly.compile(bytes);
  } catch (error) {
    const view = ArrayBuffer.isView(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 16)) : new Uint8Array(bytes, 0, Math.min(bytes.byteLength, 16));
    const start = String.fromCharCode(...view).replace(/[^\x20-\x7e]/g, ".");
    const hint = start.startsWith("<") ? ": it looks like an HTML page, as a server answers for a missing file (with a bundler, see \"Use with a bundler\" in the package's README)" : "";
    throw loadError(`${describe(given instanceof Promise ? source : given)} is not a WebAssembly module (it starts with ${JSON.stringify(start)})${hint} (${error?.message ?? error})`);
  }
}

/**
 * Loads the WebAssembly module: `source` is its URL (string or `URL`), a `Response` or a promise
 * of one (`fetch(...)`), its bytes, or a compiled `WebAssembly.Module`. Calls made while it runs
 * wait for it (asynchronous ones) or fail with `NOT_INITIALIZED` (synchronous ones). Calling it
 * again replaces the module and the instance in service.
 */
export function init(source) {
  const attempt = (async () => {
    if (source === undefined) {
      throw loadError("init() needs the module: its URL, a Response, its bytes or a compiled WebAssembly.Module (the `jobgraph` entry loads the one shipped beside it by itself)");
    }
    const module = await compileFrom(source);
    const bindings = createBindings();
    await bindings.default({ module_or_path: module });
    return { module, bindings };
  })();
  loading = attempt;
  return attempt.then(
    ({ module, bindings }) => {
      if (loading === attempt) loading = null;
      wasmModule = module;
      raw = bindings;
      standby = null;
      generation += 1;
      refill();
    },
    (error) => {
      if (loading === attempt) loading = null;
      throw error;
    },
  );
}

function notInitialized() {
  return new JobgraphError({
    code: "NOT_INITIALIZED",
    prefix: "Invalid argument",
    message: "Invalid argument: the WebAssembly module is not loaded yet: with `jobgraph/slim`, `await init(wasm)` first (the `jobgraph` entry loads it by itself)",
  });
}

/** The compiled module (shared with the workers of `createWorkerResolver`; not public API); `null` before `init`. */
export function compiledModule() {
  return wasmModule;
}

/** The compiled module once the `init` in progress (if any) has ended; not public API. */
export async function loadedModule() {
  if (!wasmModule && loading) await loading.catch(() => {});
  if (!wasmModule) throw notInitialized();
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

let raw = null;
let standby = null;
let refilling = null;
/** Instances taken into service so far (the first one included). */
let generation = 0;

function refill() {
  if (standby || refilling || !wasmModule) return;
  refilling = instantiate()
    .then((bindings) => {
      standby = bindings;
    })
    .catch(() => {})
    .finally(() => {
      refilling = null;
    });
}

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
  if (!wasmModule) throw notInitialized();
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
  if (!wasmModule) {
    if (!loading) throw notInitialized();
    await loading;
  }
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
  if (!wasmModule) throw notInitialized();
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
    /** For `INVALID_QUERY`: the query on one line and a caret under `column`. */
    this.caret = info.caret ?? null;
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
  if (wasmModule) call(() => current(instance()));
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

/** Parses a query of `logs-filter` / sources: its tree; throws `INVALID_QUERY` naming the column. */
export function checkQuery(query) {
  const text = String(query);
  return call(() => instance().checkQuery(text));
}

/** Whether each event matches `query` (one boolean per event, in order). */
export function matchQuery(query, events) {
  const text = String(query);
  const list = JSON.stringify(events ?? []);
  return call(() => instance().matchQueryJson(text, list));
}

function graphOf(document) {
  return document && typeof document === "object" && !Array.isArray(document) && document.jobGraph ? document.jobGraph : document;
}

function invalidArgument(message) {
  return new JobgraphError({ code: "INVALID_ARGUMENT", prefix: "Invalid argument", message: `Invalid argument: ${message}` });
}

/** The text `loadEvents` reads: NDJSON or JSON text as given, an array as JSON. */
function eventsText(events, what = "loadEvents") {
  if (typeof events === "string") return events;
  if (Array.isArray(events)) return JSON.stringify(events);
  throw invalidArgument(`${what}: events must be NDJSON or JSON text, or an array of events; got ${events === null ? "null" : typeof events}`);
}

function freedError(what) {
  return invalidArgument(`${what}: this EventSet was freed (free() or dispose); load the events again with loadEvents()`);
}

/** Only `loadEvents` makes EventSets. */
const EVENT_SET = Symbol("EventSet");

/**
 * Events read once and kept inside the WebAssembly module, for many runs (`runJob(job, set)`):
 * a run then reads no events. Made by `loadEvents`; `free()` (or `using`) releases the memory.
 * The set keeps its text too, so that after a trap it is read again, transparently, into the
 * instance that took over.
 */
export class EventSet {
  #text;
  #raw;
  #owner;
  #length;
  #freed = false;

  constructor(token, text, raw, owner) {
    if (token !== EVENT_SET) throw invalidArgument("EventSet: make one with loadEvents(events)");
    this.#text = text;
    this.#raw = raw;
    this.#owner = owner;
    this.#length = raw.length;
  }

  /** How many events the set holds. */
  get length() {
    return this.#length;
  }

  /** Whether `free()` was called. */
  get freed() {
    return this.#freed;
  }

  /** Releases the events; later runs on this set fail with `INVALID_ARGUMENT`. Idempotent. */
  free() {
    if (this.#freed) return;
    this.#freed = true;
    const raw = this.#raw;
    this.#raw = null;
    this.#owner = null;
    this.#text = null;
    try {
      raw?.free();
    } catch {
      // An instance that trapped: it was replaced, its memory with it.
    }
  }

  /** The module's set in `bindings` (read again if another instance holds it); not public API. */
  rawFor(bindings, what = "runJob") {
    if (this.#freed) throw freedError(what);
    if (this.#owner !== bindings) {
      // The instance that read it trapped and was replaced (or `reload()`): read it again.
      const raw = call(() => new bindings.EventSet(this.#text));
      this.#raw = raw;
      this.#owner = bindings;
    }
    return this.#raw;
  }
}
// `using set = …` where the runtime has explicit resource management.
if (typeof Symbol.dispose === "symbol") EventSet.prototype[Symbol.dispose] = EventSet.prototype.free;

/**
 * Reads events once (NDJSON text, a JSON array as text, or an array of events) into an
 * `EventSet` kept in the module, for `runJob(job, set, …)` many times without reading them
 * again. A bad event throws `INVALID_EVENTS` naming its line (NDJSON) or its position
 * (`event 3`). `free()` the set when done with it.
 */
export function loadEvents(events) {
  const text = eventsText(events);
  const bindings = instance();
  const raw = call(() => new bindings.EventSet(text));
  return new EventSet(EVENT_SET, text, raw, bindings);
}

/**
 * Runs a job (or a bare graph) on events (an array, or an `EventSet` from `loadEvents`): its
 * template operations are resolved first (with the options of `resolve`: `templates` or
 * `fetchTemplate`, `draft`, `limits`, …), then every stage is run; the result records each
 * vertex's events in and out (see docs/pipeline.md).
 */
export async function runJob(job, events = [], options = {}) {
  const { keep, keepVertices, maxEvents, maxHandled, runTimeoutMs, tables, ...resolveOptions } = options ?? {};
  if (events !== null && typeof events === "object" && !Array.isArray(events) && !(events instanceof EventSet)) {
    throw invalidArgument("runJob: events must be an array of events or an EventSet from loadEvents() (a worker resolver's sets run only through that resolver's runJob)");
  }
  if (events instanceof EventSet && events.freed) throw freedError("runJob");
  let graph = graphOf(job);
  let provenance;
  if (Array.isArray(graph?.vertices) && graph.vertices.some((v) => v?.type === "template-operation")) {
    const resolved = await resolve(job, { ...resolveOptions, provenance: true });
    graph = graphOf(resolved.output);
    provenance = resolved.provenance;
  }
  const bindings = await instanceAsync();
  const graphText = JSON.stringify(graph ?? null);
  const runOptions = { keep, keepVertices, maxEvents, maxHandled, timeoutMs: runTimeoutMs };
  let run;
  if (events instanceof EventSet) {
    const input = JSON.stringify({ tables: tables ?? {} });
    run = call(() => bindings.runPipelineOn(graphText, events.rawFor(bindings), input, runOptions));
  } else {
    const input = JSON.stringify({ events: events ?? [], tables: tables ?? {} });
    run = call(() => bindings.runPipelineJson(graphText, input, runOptions));
  }
  return provenance ? { ...run, provenance } : run;
}

/** How many WebAssembly instances have served calls so far: 1 until the first trap or `reload()`. */
export function instanceGeneration() {
  return generation;
}
