// The worker resolver's RPC contract, defined once for both sides: the page (`worker-core.js`)
// sends calls by method name with their arguments by parameter name, and the worker
// (`worker-serve.js`) serves each from this table. Internal: no entry of the package exports it.
//
// Messages, page → worker:
//   {type: "call", id, method, args: {<param>: value, …}, lazy, define: [{id, text}]}
//     `lazy`: the call's `fetchTemplate` stays on the page; the worker asks for each template.
//     `define`: event sets (their text) this worker has not read yet, read before the call.
//   {type: "fetched", fetchId, ok, value | error}: the answer to a `fetch`.
// Messages, worker → page:
//   {type: "ready"} once, then {type: "result", id, ok, value | error} per call (`error`: the
//   fields of a `JobgraphError`, `toPlain` of internal/errors.js), and
//   {type: "fetch", id, fetchId, templateId, version} while a lazy call needs a template.

/**
 * One method of the contract.
 *
 * @typedef {object} Method
 * @property {readonly string[]} params its parameters, in the order of the package's function
 *   of the same name (`api[method](...params)` in the worker), unless `serve` says otherwise
 * @property {string} [options] the parameter whose `fetchTemplate` stays on the page (lazy)
 * @property {string} [eventSet] the parameter that may name one of the worker's event sets
 *   (`{jobgraphEventSet: id}`), replaced by the set in the worker
 * @property {"set-length" | "set-free"} [serve] served from the worker's event sets rather
 *   than by the package's function: the length of set `params[0]`, or its release
 * @property {boolean} [internal] not a method of `WorkerResolver` (the page sends it itself)
 */

/** @param {Omit<Method, "params">} [rest] @param {string[]} params @returns {Readonly<Method>} */
function method(params, rest = {}) {
  return Object.freeze({ ...rest, params: Object.freeze(params) });
}

/** Every method the page may call in the worker, by name. */
export const METHODS = Object.freeze({
  resolve: method(["job", "options"], { options: "options" }),
  runJob: method(["job", "events", "options"], { options: "options", eventSet: "events" }),
  // The page's `loadEvents(events)` sends the events' text in `define` and asks for their count.
  loadEvents: method(["set"], { serve: "set-length" }),
  freeEvents: method(["set"], { serve: "set-free", internal: true }),
  testTemplate: method(["template", "input", "options"]),
  validateJobGraph: method(["graph"]),
  validateInputs: method(["inputSchema", "values"]),
  parseEdge: method(["text"]),
  formatEdge: method(["edge"]),
  checkQuery: method(["query"]),
  matchQuery: method(["query", "events"]),
});

/** @typedef {keyof typeof METHODS} MethodName */

/**
 * The method named `name`; throws for a name outside the contract (a bug of the package).
 * @param {string} name
 * @returns {Readonly<Method>}
 */
export function methodNamed(name) {
  if (!Object.hasOwn(METHODS, name)) throw new Error(`jobgraph worker: ${JSON.stringify(name)} is not a method of the worker's contract (internal/worker-protocol.js)`);
  return METHODS[/** @type {MethodName} */ (name)];
}

/**
 * `values` (the arguments in parameter order) keyed by the method's parameter names.
 * @param {string} name
 * @param {unknown[]} values
 * @returns {Record<string, unknown>}
 */
export function namedArguments(name, values) {
  const { params } = methodNamed(name);
  return Object.fromEntries(params.map((param, i) => [param, values[i]]));
}
