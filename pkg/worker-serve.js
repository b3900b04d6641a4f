// Serves calls inside a worker started by `createWorkerResolver` (`worker-entry.js` in browsers,
// `worker-entry.node.js` in Node), once the module is instantiated: each `call` message runs one
// API function and answers with a `result`; a `resolve` with a lazy `fetchTemplate` asks the
// page for each template (`fetch` / `fetched`).
import * as api from "./slim.js";

const fetches = new Map();
let nextFetch = 0;

function plain(error) {
  if (error instanceof api.JobgraphError) return { ...error, message: error.message };
  return { code: "UNEXPECTED", prefix: "Unexpected error", message: String(error?.stack ?? error) };
}

/** Serves calls: `post(message)` answers the page, `listen(handler)` receives its messages. */
export function serve(post, listen) {
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
    // The options argument that may carry a lazy `fetchTemplate`.
    const at = method === "resolve" ? 1 : method === "runJob" ? 2 : -1;
    if (at >= 0 && lazy) {
      args[at] = {
        ...args[at],
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
}
