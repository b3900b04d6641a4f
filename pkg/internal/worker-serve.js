// Serves calls inside a worker started by `createWorkerResolver` (`worker-entry.js` in browsers,
// `worker-entry.node.js` in Node), once the module is instantiated: each `call` message runs one
// method of the contract (internal/worker-protocol.js) and answers with a `result`; a call with a
// lazy `fetchTemplate` asks the page for each template (`fetch` / `fetched`).
import * as api from "../slim.js";
import { toPlain, unexpected } from "./errors.js";
import { METHODS, methodNamed } from "./worker-protocol.js";

/** @type {Map<number, {resolve: (value: unknown) => void, reject: (error: Error) => void}>} */
const fetches = new Map();
let nextFetch = 0;
/** The event sets of the page's `loadEvents`, by id. @type {Map<number, api.EventSet>} */
const sets = new Map();

/** The worker's event set `id`, which the page defined before any call that uses it. @param {number} id */
function held(id) {
  const set = sets.get(id);
  if (!set) throw unexpected("the worker does not hold the event set of this call (please report this)");
  return set;
}

/** How the worker serves the methods whose `serve` says so (the others: `api[name]`). */
const SERVED = {
  /** @param {number} id */
  "set-length": (id) => held(id).length,
  /** @param {number} id */
  "set-free": (id) => {
    sets.get(id)?.free();
    sets.delete(id);
    return null;
  },
};
// Every method of the contract is served: by the package's function of its name, or above.
for (const [name, spec] of Object.entries(METHODS)) {
  const served = spec.serve ? SERVED[spec.serve] : /** @type {Record<string, unknown>} */ (api)[name];
  if (typeof served !== "function") throw new Error(`jobgraph worker: no way to serve the contract's method ${name}`);
}

/**
 * Runs method `name` on `args` (by parameter name); `fetchTemplate` when the call is lazy.
 * @param {string} name
 * @param {Record<string, any>} args
 * @param {((id: string, version: number | undefined) => Promise<unknown>) | undefined} fetchTemplate
 */
async function run(name, args, fetchTemplate) {
  const spec = methodNamed(name);
  if (spec.options && fetchTemplate) args[spec.options] = { ...args[spec.options], fetchTemplate };
  if (spec.eventSet && args[spec.eventSet]?.jobgraphEventSet !== undefined) args[spec.eventSet] = held(args[spec.eventSet].jobgraphEventSet);
  const values = spec.params.map((param) => args[param]);
  if (spec.serve) return SERVED[spec.serve](values[0]);
  return /** @type {Record<string, (...args: unknown[]) => unknown>} */ (/** @type {unknown} */ (api))[name](...values);
}

/**
 * Serves calls: `post(message)` answers the page, `listen(handler)` receives its messages.
 * @param {(message: object) => void} post
 * @param {(handler: (message: any) => void) => void} listen
 */
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
    /** @type {(templateId: string, version: number | undefined) => Promise<unknown>} */
    const fetchTemplate = (templateId, version) =>
      new Promise((resolve, reject) => {
        const fetchId = ++nextFetch;
        fetches.set(fetchId, { resolve, reject });
        post({ type: "fetch", id, fetchId, templateId, version });
      });
    try {
      for (const { id: set, text } of message.define ?? []) sets.set(set, api.loadEvents(text));
      const value = await run(method, args, lazy ? fetchTemplate : undefined);
      post({ type: "result", id, ok: true, value });
    } catch (error) {
      post({ type: "result", id, ok: false, error: toPlain(error) });
    }
  });
  post({ type: "ready" });
}
