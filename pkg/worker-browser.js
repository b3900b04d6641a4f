// `createWorkerResolver` in browsers (a module Web Worker); `jobgraph/slim/worker` is this file.
// The worker is created with `new Worker(new URL("./worker-entry.js", import.meta.url), …)`
// written literally: the form Vite and webpack recognise, bundling `worker-entry.js` and its
// imports as a worker chunk.
import { createWorkerResolverWith } from "./internal/worker-core.js";

/** A module worker for a script on another origin (a CDN): a same-origin `blob:` module that imports it. */
function crossOriginWorker(url) {
  const source = `import ${JSON.stringify(String(url))};`;
  const blob = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  try {
    return new Worker(blob, { type: "module" });
  } finally {
    // The worker has fetched its script by the time it runs; revoking now only stops other uses.
    setTimeout(() => URL.revokeObjectURL(blob), 60_000);
  }
}

function startWorker(workerUrl) {
  if (workerUrl !== undefined) {
    const url = new URL(workerUrl, globalThis.location?.href);
    return url.origin === globalThis.location?.origin ? new Worker(url, { type: "module" }) : crossOriginWorker(url);
  }
  try {
    return new Worker(new URL("./worker-entry.js", import.meta.url), { type: "module" });
  } catch (error) {
    // Served unbundled from another origin (a CDN): a worker's script must be same-origin.
    if (error?.name !== "SecurityError") throw error;
    const entry = "./worker-entry.js"; // not a literal URL: bundlers must not emit it a second time
    return crossOriginWorker(new URL(entry, import.meta.url));
  }
}

function spawn(module, options, grok) {
  const worker = startWorker(options.workerUrl);
  worker.postMessage({ type: "init", module, grok });
  return {
    post: (m) => worker.postMessage(m),
    on: (handler) => worker.addEventListener("message", (e) => handler(e.data)),
    onFailure: (handler) => {
      worker.addEventListener("error", (e) => handler(`the worker crashed (${e.message ?? e.error?.message ?? "error event"})`));
      worker.addEventListener("messageerror", () => handler("a message from the worker could not be read"));
    },
    terminate: () => worker.terminate(),
  };
}

/** See worker.d.ts. */
export function createWorkerResolver(options = {}) {
  return createWorkerResolverWith(spawn, options ?? {});
}
