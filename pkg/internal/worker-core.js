// A resolver that runs in a Web Worker (browsers) or a worker thread (Node), so that a script that
// never ends cannot freeze the page or the event loop. Whatever goes wrong in the worker — a
// script past the time limit, a WebAssembly trap, a crash, a worker that exits — the worker is
// terminated and a new one started; the failed call gets a clear error (`TIMEOUT`, `WASM_TRAP`)
// and every call queued behind it runs in the new worker. New workers get the module compiled
// once in this thread, so a replacement costs a thread start and an instantiation, not a compile.
// This file is the part shared by browsers and Node; `worker-browser.js` and `worker-node.js` start
// the workers.
import { EventSet } from "../slim.js";
import { EXECUTION_FAILED, JobgraphError, freedError, invalidArgument, jobgraphError, trapError } from "./errors.js";
import { main } from "./main-module.js";
import { grokSourceForWorker } from "./grok-core.js";
import { METHODS, namedArguments } from "./worker-protocol.js";

/** The resolver's own methods, beside those of the worker's contract (internal/worker-protocol.js). */
const LOCAL = ["replacements", "terminate"];

/** The events of a worker resolver's `loadEvents`, kept in its worker (see worker.d.ts). */
class WorkerEventSet {
  #length;
  #release;
  #freed = false;

  constructor(length, release) {
    this.#length = length;
    this.#release = release;
  }

  /** How many events the set holds. */
  get length() {
    return this.#length;
  }

  /** Whether `free()` was called. */
  get freed() {
    return this.#freed;
  }

  /** Releases the events, in the worker too; later runs on this set fail. Idempotent. */
  free() {
    if (this.#freed) return;
    this.#freed = true;
    this.#release();
  }
}
// `using set = …` where the runtime has explicit resource management.
if (typeof Symbol.dispose === "symbol") WorkerEventSet.prototype[Symbol.dispose] = WorkerEventSet.prototype.free;

/** Throws unless `api` has exactly the contract's methods (but the internal ones) and `LOCAL`. */
function checkContract(api) {
  const contract = Object.keys(METHODS).filter((name) => !METHODS[name].internal);
  const missing = contract.filter((name) => !Object.hasOwn(api, name));
  const extra = Object.keys(api).filter((name) => !contract.includes(name) && !LOCAL.includes(name));
  if (missing.length || extra.length) {
    throw new Error(`jobgraph worker: the resolver and the worker's contract (internal/worker-protocol.js) differ: missing ${missing.join(", ") || "none"}, extra ${extra.join(", ") || "none"}`);
  }
}

/**
 * `createWorkerResolver(options)` over `spawn(module, options, grok)`, which starts one worker
 * (`grok`: the grok module's source `init` was given, for a job with a `grok-parser`) and
 * returns `{post, on, onFailure, terminate}`.
 */
export async function createWorkerResolverWith(spawn, options = {}) {
  const timeoutMs = options.timeoutMs ?? 5000;
  const module = await main.loadedModule();
  /** The worker serving calls, once ready: {w, ready: Promise}. */
  let worker = null;
  let nextId = 0;
  let current = null; // the call in flight: {id, method, args, resolve, reject, fetchTemplate, timer, w}
  const queue = [];
  let closed = false;
  let replacements = 0;
  /**
   * Event sets of `loadEvents`: id → their text, kept here so that a worker that replaces a
   * failed one (a time-out, a trap) reads them again before the first call that needs them.
   * Each worker's `sets` holds the ids it has read.
   */
  const eventSets = new Map();
  /** The id of each WorkerEventSet of this resolver. */
  const setIds = new WeakMap();
  let nextSet = 0;

  /** Starts a worker; resolves once it is ready, rejects if it fails before. */
  function start() {
    const entry = { w: null, ready: null, dead: false, started: false, sets: new Set() };
    entry.ready = (async () => {
      const w = await spawn(module, options, grokSourceForWorker());
      entry.w = w;
      await new Promise((resolve, reject) => {
        w.on((message) => {
          if (message?.type === "ready") resolve();
          else handle(entry, message);
        });
        w.onFailure((reason) => {
          reject(new Error(reason));
          failed(entry, reason);
        });
      });
      entry.started = true;
    })();
    worker = entry;
    return entry.ready;
  }

  /** The worker of `entry` failed (crash, exit): the call in it fails, a new worker takes over. */
  function failed(entry, reason) {
    if (entry.dead) return;
    if (!entry.started) {
      // A worker that cannot even start: the waiting calls fail instead of waiting forever,
      // and the next call tries a new one.
      entry.dead = true;
      entry.w?.terminate();
      if (worker === entry) worker = null;
      for (const call of queue.splice(0)) {
        call.reject(trapError(`the worker could not be started (${reason})`));
      }
      return;
    }
    if (current && current.entry === entry) {
      finish(trapError(`${reason}; it was replaced`));
    }
    replace(entry);
    pump();
  }

  /** Terminates the worker of `entry` (if still in service) and starts a new one. */
  function replace(entry) {
    entry.dead = true;
    entry.ready.catch(() => {});
    entry.w?.terminate();
    if (worker !== entry || closed) return;
    replacements += 1;
    start().then(pump, () => {});
  }

  /** Settles the call in flight with `error` (or `value`). */
  function finish(error, value) {
    const call = current;
    if (!call) return;
    current = null;
    clearTimeout(call.timer);
    if (error) call.reject(error);
    else call.resolve(value);
  }

  function handle(entry, message) {
    if (!current || current.entry !== entry || message?.id !== current.id) return;
    if (message.type === "fetch") {
      const { fetchTemplate } = current;
      Promise.resolve()
        .then(() => fetchTemplate(message.templateId, message.version))
        .then(
          (value) => entry.w.post({ type: "fetched", fetchId: message.fetchId, ok: true, value }),
          (error) => entry.w.post({ type: "fetched", fetchId: message.fetchId, ok: false, error: String(error?.message ?? error) }),
        );
      return;
    }
    if (message.type === "result") {
      if (message.ok) finish(null, message.value);
      else {
        finish(new JobgraphError(message.error));
        // A trap: the package inside the worker carries on with a standby instance, but the
        // worker's own heap and stack went through it too. Start over with a new worker.
        if (message.error?.code === "WASM_TRAP") replace(entry);
      }
      pump();
    }
  }

  async function pump() {
    if (current || queue.length === 0 || closed) return;
    if (!worker) start().catch(() => {});
    const entry = worker;
    try {
      await entry.ready;
    } catch {
      return; // failed() has answered the waiting calls.
    }
    if (current || queue.length === 0 || closed || entry !== worker || entry.dead) return;
    const call = queue.shift();
    call.entry = entry;
    current = call;
    call.timer = setTimeout(() => {
      if (current !== call) return;
      finish(
        jobgraphError("TIMEOUT", EXECUTION_FAILED, `time limit of ${timeoutMs} ms exceeded; the worker was terminated and replaced`, {
          limit: { kind: "time", value: timeoutMs },
        }),
      );
      replace(entry);
    }, timeoutMs);
    // The event sets this call uses that this worker has not read yet go with it.
    const define = [];
    for (const id of call.sets ?? []) {
      if (entry.sets.has(id)) continue;
      const text = eventSets.get(id);
      if (text === undefined) {
        finish(freedError(call.method));
        pump();
        return;
      }
      define.push({ id, text });
    }
    try {
      entry.w.post({ type: "call", id: call.id, method: call.method, args: call.args, lazy: call.fetchTemplate != null, define });
      for (const { id } of define) entry.sets.add(id);
    } catch (error) {
      // Arguments that cannot be cloned (a function, a symbol): this call fails, nothing else.
      finish(invalidArgument(`${error?.message ?? error}`));
      pump();
    }
  }

  function terminatedError() {
    return invalidArgument("the worker resolver was terminated");
  }

  /**
   * Calls `method` of the contract in the worker with `values` (its arguments, in order);
   * `sets`: the ids of the event sets the call uses.
   */
  function enqueue(method, values, fetchTemplate, sets) {
    if (closed) return Promise.reject(terminatedError());
    const args = namedArguments(method, values);
    return new Promise((resolve, reject) => {
      queue.push({ id: ++nextId, method, args, fetchTemplate, sets, resolve, reject });
      pump();
    });
  }

  /** Forgets event set `id`, in the worker too (after the calls queued before). */
  function release(id) {
    eventSets.delete(id);
    if (!closed && worker && !worker.dead && worker.sets.has(id)) enqueue("freeEvents", [id]).catch(() => {});
  }

  /** The id of `events` when it is one of this resolver's sets (throws when freed or foreign). */
  function setIdOf(events) {
    if (events instanceof EventSet) {
      throw invalidArgument("runJob: this EventSet was loaded into this thread's module by loadEvents(); a worker resolver runs on the sets of its own loadEvents()");
    }
    if (!(events instanceof WorkerEventSet)) return undefined;
    const id = setIds.get(events);
    if (id === undefined) throw invalidArgument("runJob: this EventSet belongs to another worker resolver");
    if (events.freed) throw freedError("runJob");
    return id;
  }

  const api = {
    resolve(job, opts = {}) {
      const { fetchTemplate, ...rest } = opts;
      return enqueue("resolve", [job, rest], fetchTemplate);
    },
    runJob(job, events = [], opts = {}) {
      const { fetchTemplate, ...rest } = opts ?? {};
      let id;
      try {
        id = setIdOf(events);
      } catch (error) {
        return Promise.reject(error);
      }
      if (id === undefined) return enqueue("runJob", [job, events, rest], fetchTemplate);
      return enqueue("runJob", [job, { jobgraphEventSet: id }, rest], fetchTemplate, [id]);
    },
    async loadEvents(events) {
      let text = events;
      if (Array.isArray(events)) text = JSON.stringify(events);
      else if (typeof events !== "string") {
        throw invalidArgument(`loadEvents: events must be NDJSON or JSON text, or an array of events; got ${events === null ? "null" : typeof events}`);
      }
      const id = ++nextSet;
      eventSets.set(id, text);
      let length;
      try {
        length = await enqueue("loadEvents", [id], undefined, [id]);
      } catch (error) {
        eventSets.delete(id);
        if (worker) worker.sets.delete(id);
        throw error;
      }
      const set = new WorkerEventSet(length, () => release(id));
      setIds.set(set, id);
      return set;
    },
    checkQuery: (query) => enqueue("checkQuery", [query]),
    matchQuery: (query, events) => enqueue("matchQuery", [query, events]),
    testTemplate: (template, input = {}, opts = {}) => enqueue("testTemplate", [template, input, opts]),
    validateJobGraph: (graph) => enqueue("validateJobGraph", [graph]),
    validateInputs: (inputSchema, values) => enqueue("validateInputs", [inputSchema, values]),
    parseEdge: (text) => enqueue("parseEdge", [text]),
    formatEdge: (edge) => enqueue("formatEdge", [edge]),
    /** How many times the worker was replaced (after a time-out, a trap or a crash). */
    replacements: () => replacements,
    async terminate() {
      closed = true;
      eventSets.clear();
      finish(terminatedError());
      for (const call of queue.splice(0)) call.reject(terminatedError());
      const entry = worker;
      if (!entry) return;
      entry.dead = true;
      await entry.ready.catch(() => {});
      await entry.w?.terminate();
    },
  };
  checkContract(api);
  await start();
  return api;
}
