// `jobgraph/slim`: the package's API without loading the WebAssembly module. Call
// `await init(wasm)` once first (a URL, a Response, bytes or a compiled WebAssembly.Module);
// `jobgraph` (index.js / index.node.js) is this module plus a load of the module shipped beside it.
// Documents cross into wasm as JSON text, so results are exactly the native resolver's.

import { JobgraphError, freedError, invalidArgument, unexpected } from "./internal/errors.js";
import { main } from "./internal/main-module.js";
import { grokBindings, grokRuntime, setGrokSource } from "./internal/grok-core.js";

export { JobgraphError };

// The module's instances, their loading and their replacement after a trap: `internal/runtime.js`.
const { instance, instanceAsync, call, rethrow } = main;

/**
 * Loads the WebAssembly module: `source` is its URL (string or `URL`), a `Response` or a promise
 * of one (`fetch(...)`), its bytes, or a compiled `WebAssembly.Module`. Calls made while it runs
 * wait for it (asynchronous ones) or fail with `NOT_INITIALIZED` (synchronous ones). Calling it
 * again replaces the module and the instance in service.
 *
 * `options.grok` is where `runJob` takes the grok module from when a job has a `grok-parser`
 * (the same kinds of source, or a function returning one): it is loaded then, at the first such
 * run, never before.
 *
 * @param {unknown} source
 * @param {{grok?: unknown}} [options]
 * @returns {Promise<void>}
 */
export function init(source, options = {}) {
  if (options?.grok !== undefined) setGrokSource(options.grok, true);
  return main.init(source);
}

/** Replaces the instance in service with a fresh one (never needed after a trap: that is automatic). */
export async function reload() {
  return main.reload();
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
          throw unexpected("the resolution waits for no template fetch (please report this)");
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
    throw invalidArgument(`createResolver: ${name} must be an integer from 0 to ${MAX_USIZE}, got ${JSON.stringify(value) ?? String(value)}`);
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
  if (main.loaded()) call(() => current(instance()));
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
  const text = JSON.stringify(template);
  const values = JSON.stringify(input.values ?? {});
  const testOptions = { ...options, isDraft: input.isDraft ?? false };
  return call(() => instance().testTemplateJson(text, values, testOptions));
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

/** The text `loadEvents` reads: NDJSON or JSON text as given, an array as JSON. */
function eventsText(events, what = "loadEvents") {
  if (typeof events === "string") return events;
  if (Array.isArray(events)) return JSON.stringify(events);
  throw invalidArgument(`${what}: events must be NDJSON or JSON text, or an array of events; got ${events === null ? "null" : typeof events}`);
}

/** @typedef {"main" | "grok"} ModuleKind */

/** The runtime (`internal/runtime.js`) of each module a run may take place in. */
const RUNTIMES = { main, grok: grokRuntime };

/** Only `loadEvents` makes EventSets. */
const EVENT_SET = Symbol("EventSet");

/**
 * The module's set of an `EventSet` in `bindings` (an instance of the module `kind`: "main" or
 * "grok"), read again if another instance holds it; for `runJob` (this module's own: the class
 * keeps it private).
 * @type {(set: EventSet, kind: ModuleKind, bindings: any, what?: string) => any}
 */
let rawSetFor;
/**
 * A new `EventSet` of `text`, read into `raw` by the instance `owner`; for `loadEvents`.
 * @type {(text: string, raw: any, owner: any) => EventSet}
 */
let newEventSet;

/**
 * Events read once and kept inside the WebAssembly module, for many runs (`runJob(job, set)`):
 * a run then reads no events. Made by `loadEvents`; `free()` (or `using`) releases the memory.
 * The set keeps its text too, so that after a trap it is read again, transparently, into the
 * instance that took over; and a run of a job with a `grok-parser` (which takes place in the
 * grok module) reads it into that module once, the first time.
 */
export class EventSet {
  #text;
  /**
   * The module's own set in each module that holds one, with the instance that read it.
   * @type {Map<ModuleKind, {owner: any, raw: any}>}
   */
  #held = new Map();
  #length;
  #freed = false;

  /** @param {unknown} token */
  constructor(token) {
    if (token !== EVENT_SET) throw invalidArgument("EventSet: make one with loadEvents(events)");
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
    this.#text = null;
    for (const { raw } of this.#held.values()) release(raw);
    this.#held.clear();
  }

  static {
    rawSetFor = (set, kind, bindings, what) => set.#rawFor(kind, bindings, what);
    newEventSet = (text, raw, owner) => {
      const set = new EventSet(EVENT_SET);
      set.#text = text;
      set.#held.set("main", { owner, raw });
      set.#length = raw.length;
      return set;
    };
  }

  /** The set in `bindings`, an instance of module `kind` (read into it if it holds none yet). */
  #rawFor(kind, bindings, what = "runJob") {
    if (this.#freed) throw freedError(what);
    const held = this.#held.get(kind);
    if (held?.owner === bindings) return held.raw;
    // None yet in that module, or the instance that read it trapped and was replaced (or
    // `reload()`): read it (again).
    if (held) release(held.raw);
    const text = this.#text;
    const raw = RUNTIMES[kind].call(() => new bindings.EventSet(text));
    this.#held.set(kind, { owner: bindings, raw });
    return raw;
  }
}

/** Frees a module's set, whose instance may have trapped (then its memory went with it). */
function release(raw) {
  try {
    raw.free();
  } catch {
    // An instance that trapped: it was replaced, its memory with it.
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
  return newEventSet(text, raw, bindings);
}

/** Whether a (resolved) graph has a `grok-parser` vertex: its run takes place in the grok module. */
function hasGrokParser(graph) {
  return Array.isArray(graph?.vertices) && graph.vertices.some((v) => v?.type === "grok-parser");
}

/**
 * Runs a job (or a bare graph) on events (an array, or an `EventSet` from `loadEvents`): its
 * template operations are resolved first (with the options of `resolve`: `templates` or
 * `fetchTemplate`, `draft`, `limits`, …), then every stage is run; the result records each
 * vertex's events in and out (see docs/pipeline.md).
 *
 * A graph with a `grok-parser` (after resolution) runs in the grok module, which holds the same
 * run code compiled with the grok engine, loaded at the first such run: the main module leaves
 * the grok engine out (docs/npm-package.md, "Grok"). The record is the one a native run gives.
 *
 * @param {unknown} job
 * @param {unknown} [events] an array of events, or an `EventSet`
 * @param {Record<string, any>} [options]
 */
export async function runJob(job, events = [], options = {}) {
  const { keep, keepVertices, keepSinks, maxEvents, maxHandled, runTimeoutMs, tables, incremental, ...resolveOptions } = options ?? {};
  if (events !== null && typeof events === "object" && !Array.isArray(events) && !(events instanceof EventSet)) {
    throw invalidArgument("runJob: events must be an array of events or an EventSet from loadEvents() (a worker resolver's sets run only through that resolver's runJob)");
  }
  if (incremental && !(events instanceof EventSet)) {
    throw invalidArgument("runJob: `incremental` needs an EventSet from loadEvents(), which keeps the unchanged stages' events between runs; got an array of events");
  }
  if (events instanceof EventSet && events.freed) throw freedError("runJob");
  let graph = graphOf(job);
  let provenance;
  if (Array.isArray(graph?.vertices) && graph.vertices.some((v) => v?.type === "template-operation")) {
    const resolved = await resolve(job, { ...resolveOptions, provenance: true });
    graph = graphOf(resolved.output);
    provenance = resolved.provenance;
  }
  /** @type {ModuleKind} */
  const kind = hasGrokParser(graph) ? "grok" : "main";
  const runtime = RUNTIMES[kind];
  const bindings = kind === "grok" ? await grokBindings() : await instanceAsync();
  const graphText = JSON.stringify(graph ?? null);
  const runOptions = { keep, keepVertices, keepSinks, maxEvents, maxHandled, timeoutMs: runTimeoutMs, incremental: Boolean(incremental) };
  let run;
  if (events instanceof EventSet) {
    const input = JSON.stringify({ tables: tables ?? {} });
    run = runtime.call(() => bindings.runPipelineOn(graphText, rawSetFor(events, kind, bindings), input, runOptions));
  } else {
    const input = JSON.stringify({ events: events ?? [], tables: tables ?? {} });
    run = runtime.call(() => bindings.runPipelineJson(graphText, input, runOptions));
  }
  return provenance ? { ...run, provenance } : run;
}

/** How many WebAssembly instances have served calls so far: 1 until the first trap or `reload()`. */
export function instanceGeneration() {
  return main.generation();
}
