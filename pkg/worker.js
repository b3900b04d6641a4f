// A resolver that runs in a Web Worker (browsers) or a worker thread (Node), so that a script that
// never ends cannot freeze the page or the event loop: past the time limit the worker is
// terminated and replaced, and the call fails with a clear `TIMEOUT` error.
import { JobgraphError } from "./index.js";

const isNode = typeof process !== "undefined" && process.versions?.node != null && typeof window === "undefined";
const ENTRY = new URL("./worker-entry.js", import.meta.url);
const METHODS = new Set(["resolve", "testTemplate", "validateJobGraph", "validateInputs", "parseEdge", "formatEdge"]);

async function spawn() {
  if (isNode) {
    const { Worker } = await import("node:worker_threads");
    const worker = new Worker(ENTRY);
    return {
      post: (m) => worker.postMessage(m),
      on: (handler) => worker.on("message", handler),
      onError: (handler) => worker.on("error", handler),
      terminate: () => worker.terminate(),
    };
  }
  const worker = new Worker(ENTRY, { type: "module" });
  return {
    post: (m) => worker.postMessage(m),
    on: (handler) => worker.addEventListener("message", (e) => handler(e.data)),
    onError: (handler) => worker.addEventListener("error", (e) => handler(e.error ?? new Error(e.message))),
    terminate: () => worker.terminate(),
  };
}

/** See worker.d.ts. */
export async function createWorkerResolver(options = {}) {
  const timeoutMs = options.timeoutMs ?? 5000;
  let worker;
  let ready;
  let nextId = 0;
  let current = null; // the call in flight: {id, resolve, reject, fetchTemplate, timer}
  const queue = [];
  let closed = false;

  function start() {
    ready = (async () => {
      const w = await spawn();
      await new Promise((resolve, reject) => {
        w.on((message) => {
          if (message.type === "ready") resolve();
          else handle(w, message);
        });
        w.onError((error) => {
          reject(error);
          fail(new JobgraphError({ code: "WASM_TRAP", prefix: "JavaScript execution failed", message: `JavaScript execution failed: the worker crashed (${error?.message ?? error}); it was replaced` }));
          replace();
        });
      });
      worker = w;
    })();
    return ready;
  }

  function replace() {
    const old = worker;
    worker = undefined;
    old?.terminate();
    if (!closed) start().then(pump, () => {});
  }

  function fail(error) {
    if (!current) return;
    clearTimeout(current.timer);
    current.reject(error);
    current = null;
  }

  function handle(w, message) {
    if (!current || message.id !== current.id) return;
    if (message.type === "fetch") {
      Promise.resolve()
        .then(() => current.fetchTemplate(message.templateId, message.version))
        .then(
          (value) => w.post({ type: "fetched", fetchId: message.fetchId, ok: true, value }),
          (error) => w.post({ type: "fetched", fetchId: message.fetchId, ok: false, error: String(error?.message ?? error) }),
        );
      return;
    }
    if (message.type === "result") {
      const call = current;
      current = null;
      clearTimeout(call.timer);
      if (message.ok) call.resolve(message.value);
      else {
        call.reject(new JobgraphError(message.error));
        // A trapped instance was already replaced inside the worker; nothing more to do here.
      }
      pump();
    }
  }

  async function pump() {
    if (current || queue.length === 0 || closed) return;
    await ready;
    if (current || queue.length === 0 || !worker) return;
    const call = queue.shift();
    current = call;
    call.timer = setTimeout(() => {
      fail(new JobgraphError({
        code: "TIMEOUT",
        prefix: "JavaScript execution failed",
        message: `JavaScript execution failed: time limit of ${timeoutMs} ms exceeded; the worker was terminated and replaced`,
        limit: { kind: "time", value: timeoutMs },
      }));
      replace();
    }, timeoutMs);
    worker.post({ type: "call", id: call.id, method: call.method, args: call.args, lazy: call.fetchTemplate != null });
  }

  function enqueue(method, args, fetchTemplate) {
    if (closed) return Promise.reject(new JobgraphError({ code: "INVALID_ARGUMENT", prefix: "Invalid argument", message: "Invalid argument: the worker resolver was terminated" }));
    return new Promise((resolve, reject) => {
      queue.push({ id: ++nextId, method, args, fetchTemplate, resolve, reject });
      pump();
    });
  }

  await start();

  const api = {
    resolve(job, opts = {}) {
      const { fetchTemplate, ...rest } = opts;
      return enqueue("resolve", [job, rest], fetchTemplate);
    },
    testTemplate: (template, input = {}, opts = {}) => enqueue("testTemplate", [template, input, opts]),
    validateJobGraph: (graph) => enqueue("validateJobGraph", [graph]),
    validateInputs: (inputSchema, values) => enqueue("validateInputs", [inputSchema, values]),
    parseEdge: (text) => enqueue("parseEdge", [text]),
    formatEdge: (edge) => enqueue("formatEdge", [edge]),
    async terminate() {
      closed = true;
      fail(new JobgraphError({ code: "INVALID_ARGUMENT", prefix: "Invalid argument", message: "Invalid argument: the worker resolver was terminated" }));
      for (const call of queue.splice(0)) call.reject(new JobgraphError({ code: "INVALID_ARGUMENT", prefix: "Invalid argument", message: "Invalid argument: the worker resolver was terminated" }));
      await ready.catch(() => {});
      await worker?.terminate();
    },
  };
  for (const name of Object.keys(api)) if (name !== "terminate" && !METHODS.has(name)) throw new Error(`unknown method ${name}`);
  return api;
}
