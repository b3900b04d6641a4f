// Runs inside a Web Worker or a Node worker thread: serves calls from `createWorkerResolver`.
// The compiled module comes from the thread that started the worker (Node: `workerData`;
// browsers: the first message), so that the package here instantiates it instead of compiling.

const isNode = typeof process !== "undefined" && process.versions?.node != null && typeof self === "undefined";
const SHARED_MODULE = Symbol.for("jobgraph.wasmModule");
let post;
let listen;
if (isNode) {
  const { parentPort, workerData } = await import("node:worker_threads");
  globalThis[SHARED_MODULE] = workerData?.module;
  post = (message) => parentPort.postMessage(message);
  listen = (handler) => parentPort.on("message", handler);
} else {
  globalThis[SHARED_MODULE] = await new Promise((resolve) => {
    const first = (event) => {
      if (event.data?.type !== "init") return;
      self.removeEventListener("message", first);
      resolve(event.data.module);
    };
    self.addEventListener("message", first);
  });
  post = (message) => self.postMessage(message);
  listen = (handler) => self.addEventListener("message", (event) => handler(event.data));
}
const api = await import("./index.js");

const fetches = new Map();
let nextFetch = 0;

function plain(error) {
  if (error instanceof api.JobgraphError) return { ...error, message: error.message };
  return { code: "UNEXPECTED", prefix: "Unexpected error", message: String(error?.stack ?? error) };
}

listen(async (message) => {
  if (message.type === "fetched") {
    const pending = fetches.get(message.fetchId);
    fetches.delete(message.fetchId);
    if (message.ok) pending?.resolve(message.value);
    else pending?.reject(new Error(message.error));
    return;
  }
  if (message.type !== "call") return;
  const { id, method, args, lazy } = message;
  if (method === "resolve" && lazy) {
    args[1] = {
      ...args[1],
      fetchTemplate: (templateId, version) =>
        new Promise((resolve, reject) => {
          const fetchId = ++nextFetch;
          fetches.set(fetchId, { resolve, reject });
          post({ type: "fetch", id, fetchId, templateId, version });
        }),
    };
  }
  try {
    const value = await api[method](...args);
    post({ type: "result", id, ok: true, value });
  } catch (error) {
    post({ type: "result", id, ok: false, error: plain(error) });
  }
});

post({ type: "ready" });
