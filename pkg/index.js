// The `jobgraph` package: a thin, typed wrapper over the WebAssembly build of jobgraph-core.
// Documents cross into wasm as JSON text, so results are exactly the native resolver's.

const GLUE = "./wasm/jobgraph_wasm.js";
const WASM = "./wasm/jobgraph_wasm_bg.wasm";
const isNode = typeof process !== "undefined" && process.versions != null && process.versions.node != null;

let raw;
let generation = 0;
/** The reload started after a trap, until it is done: async calls wait for it. */
let reloading = null;

async function wasmBytesOrUrl() {
  const url = new URL(WASM, import.meta.url);
  if (isNode) {
    const { readFile } = await import("node:fs/promises");
    return readFile(url);
  }
  return url;
}

/** Loads a fresh instance of the module: a new copy of the glue, so no state of a trapped instance survives. */
export async function reload() {
  generation += 1;
  const glue = await import(`${GLUE}?instance=${generation}`);
  await glue.default({ module_or_path: await wasmBytesOrUrl() });
  raw = glue;
}

await reload();

/** Every failure of this package. `message` starts with the service's contract prefix. */
export class JobgraphError extends Error {
  constructor(info) {
    super(info.message);
    this.name = "JobgraphError";
    this.code = info.code;
    this.prefix = info.prefix;
    this.templateId = info.templateId ?? null;
    this.templateVersion = info.templateVersion ?? null;
    this.operationPath = info.operationPath ?? [];
    this.line = info.line ?? null;
    this.column = info.column ?? null;
    this.pointer = info.pointer ?? null;
    this.problems = info.problems ?? [];
    this.limit = info.limit ?? null;
  }
}

function rethrow(error) {
  if (error && typeof error === "object" && typeof error.code === "string" && typeof error.message === "string" && !(error instanceof Error)) {
    throw new JobgraphError(error);
  }
  // A trap (out of memory, stack overflow in linear memory) or the engine's own stack limit
  // (RangeError thrown through wasm frames) leaves the instance unusable.
  if (error instanceof WebAssembly.RuntimeError || error instanceof RangeError) {
    const message = `JavaScript execution failed: the WebAssembly instance trapped (${error.message}); a fresh instance was loaded`;
    const fresh = reload()
      .catch(() => {})
      .finally(() => {
        if (reloading === fresh) reloading = null;
      });
    reloading = fresh;
    throw new JobgraphError({ code: "WASM_TRAP", prefix: "JavaScript execution failed", message });
  }
  throw error;
}

function call(fn) {
  try {
    return fn();
  } catch (error) {
    rethrow(error);
  }
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

/** Resolves every template operation of a job (or a bare graph). */
export async function resolve(job, options = {}) {
  if (reloading) await reloading;
  try {
    return await raw.resolveJson(...resolveArguments(job, options));
  } catch (error) {
    rethrow(error);
  }
}

const MAX_USIZE = 2 ** 32 - 1; // wasm32

function bound(value, name) {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 0 || value > MAX_USIZE) {
    const message = `Invalid argument: createResolver: ${name} must be an integer from 0 to ${MAX_USIZE}, got ${JSON.stringify(value) ?? String(value)}`;
    throw new JobgraphError({ code: "INVALID_ARGUMENT", prefix: "Invalid argument", message });
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
  // A CachedResolver lives in one wasm instance: after a trap and a reload, a new one (with an
  // empty cache) is made on the fresh instance.
  let owner = null;
  let cached = null;
  const current = () => {
    if (owner !== raw) {
      cached = call(() => new raw.CachedResolver(maxEntries, maxBytes));
      owner = raw;
    }
    return cached;
  };
  current();
  return {
    async resolve(job, resolveOptions = {}) {
      if (reloading) await reloading;
      try {
        return await current().resolveJson(...resolveArguments(job, resolveOptions));
      } catch (error) {
        rethrow(error);
      }
    },
    clear() {
      // While a fresh instance loads, the cache that will serve the next call is empty already.
      if (!reloading) call(() => current().clear());
    },
    stats() {
      if (reloading) return { entries: 0, bytes: 0, hits: 0, misses: 0 };
      return call(() => current().stats());
    },
  };
}

/** Runs one template's script with input values, as `POST /v1/templates/test` does. */
export function testTemplate(template, input = {}, options = {}) {
  return call(() =>
    raw.testTemplateJson(JSON.stringify(template), JSON.stringify(input.values ?? {}), {
      ...options,
      isDraft: input.isDraft ?? false,
    }),
  );
}

/** Every problem of a graph, each with its JSON pointer; `[]` when valid. */
export function validateJobGraph(graph) {
  return call(() => raw.validateJobGraphJson(JSON.stringify(graph ?? null)));
}

/**
 * Every problem of `values` against an input schema (JSON Schema 2020-12, as a template's
 * `inputSchema`), each with its JSON pointer; `[]` when valid. Defaults are not filled.
 */
export function validateInputs(inputSchema, values) {
  return call(() => raw.validateInputsJson(JSON.stringify(inputSchema ?? true), JSON.stringify(values ?? null)));
}

/** Parses `from[:port] -> to[:port]`. */
export function parseEdge(text) {
  return call(() => raw.parseEdge(String(text)));
}

/** Writes an edge canonically: `from[:port] -> to[:port]`. */
export function formatEdge(edge) {
  return call(() => raw.formatEdge(edge));
}
