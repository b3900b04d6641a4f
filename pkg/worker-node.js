// `createWorkerResolver` in Node (a worker thread); `jobgraph/slim/worker` in Node is this file.
import { Worker } from "node:worker_threads";
import { createWorkerResolverWith } from "./internal/worker-core.js";

function spawn(module, options, grok) {
  const entry = options.workerUrl !== undefined ? new URL(options.workerUrl) : new URL("./worker-entry.node.js", import.meta.url);
  const worker = new Worker(entry, { workerData: { module, grok } });
  return {
    post: (m) => worker.postMessage(m),
    on: (handler) => worker.on("message", handler),
    // A worker that dies (an uncaught error, running out of heap, `process.exit`) ends with
    // `exit`; an uncaught error is reported first by `error`.
    onFailure: (handler) => {
      worker.on("error", (error) => handler(`the worker crashed (${error?.message ?? error})`));
      worker.on("exit", (code) => handler(`the worker exited (code ${code})`));
      worker.on("messageerror", (error) => handler(`a message from the worker could not be read (${error?.message ?? error})`));
    },
    terminate: () => worker.terminate(),
  };
}

/** See worker.d.ts. */
export function createWorkerResolver(options = {}) {
  return createWorkerResolverWith(spawn, options ?? {});
}
