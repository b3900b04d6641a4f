// Serves calls inside a worker started by `createWorkerResolver` (`worker-entry.js` in browsers,
// `worker-entry.node.js` in Node), once the module is instantiated: each `call` message runs one
// API function and answers with a `result`; a `resolve` with a lazy `fetchTemplate` asks the
// page for each template (`fetch` / `fetched`).
import * as api from "./slim.js";

const fetches = new Map();
let nextFetch = 0;
/** The event sets of the page's `loadEvents`, by id. */
const sets = new Map();

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
      for (const { id: set, text } of message.define ?? []) sets.set(set, api.loadEvents(text));
      let value;
      if (method === "loadEvents") value = sets.get(args[0]).length;
      else if (method === "freeEvents") {
        sets.get(args[0])?.free();
        sets.delete(args[0]);
        value = null;
      } else {
        if (method === "runJob" && args[1]?.jobgraphEventSet !== undefined) {
          const set = sets.get(args[1].jobgraphEventSet);
          if (!set) throw new api.JobgraphError({ code: "UNEXPECTED", prefix: "Unexpected error", message: "Unexpected error: the worker does not hold the event set of this call (please report this)" });
          args[1] = set;
        }
        value = await api[method](...args);
      }
      post({ type: "result", id, ok: true, value });
    } catch (error) {
      post({ type: "result", id, ok: false, error: plain(error) });
    }
  });
  post({ type: "ready" });
}
