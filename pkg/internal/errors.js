// The package's one error factory: `JobgraphError`, and every error the JavaScript side makes
// itself (a module that will not load, a call before `init`, a trap, a bad argument), for the main
// module (`slim.js`), the worker resolver (`worker-core.js`, `worker-serve.js`) and the grok
// module (`grok-core.js`). Internal: the package's entries export `JobgraphError` only.
//
// Every message is `<prefix>: <detail>`, the prefix being the service's contract prefix, so
// `jobgraphError("INVALID_ARGUMENT", "Invalid argument", "x")` has the message
// `Invalid argument: x`.

/** Every failure of this package. `message` starts with the service's contract prefix. */
export class JobgraphError extends Error {
  /** @type {"JobgraphError"} */
  name = "JobgraphError";

  /**
   * @param {{code: any, prefix: string, message: string, templateId?: string | null,
   *   templateVersion?: number | null, operationPath?: string[], line?: number | null,
   *   column?: number | null, pointer?: string | null, problems?: {pointer: string, message: string}[],
   *   limit?: {kind: any, value: number} | null, caret?: string | null}} info
   *   the error's fields, as the WebAssembly modules throw them (`code`: one of `ErrorCode` of
   *   index.d.ts, and `limit.kind`, of `LimitHit`: chosen by the modules)
   */
  constructor(info) {
    super(info.message);
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
    /** For `INVALID_QUERY`: the query on one line and a caret under `column`. */
    this.caret = info.caret ?? null;
  }
}

export const INVALID_ARGUMENT = "Invalid argument";
export const EXECUTION_FAILED = "JavaScript execution failed";
export const LOAD_FAILED = "Could not load the WebAssembly module";
export const UNEXPECTED = "Unexpected error";

/**
 * A `JobgraphError` of `code` whose message is `prefix: detail`; `fields` adds the others
 * (`limit`, …).
 *
 * @param {string} code
 * @param {string} prefix
 * @param {string} detail
 * @param {{limit?: {kind: string, value: number}}} [fields]
 */
export function jobgraphError(code, prefix, detail, fields = {}) {
  return new JobgraphError({ ...fields, code, prefix, message: `${prefix}: ${detail}` });
}

/** `INVALID_ARGUMENT`: `Invalid argument: <detail>`. @param {string} detail */
export function invalidArgument(detail) {
  return jobgraphError("INVALID_ARGUMENT", INVALID_ARGUMENT, detail);
}

/** `WASM_LOAD_FAILED`: the module could not be fetched, read or compiled. @param {string} detail */
export function loadError(detail) {
  return jobgraphError("WASM_LOAD_FAILED", LOAD_FAILED, detail);
}

/** `NOT_INITIALIZED`: a call before the module is loaded. @param {string} detail */
export function notInitialized(detail) {
  return jobgraphError("NOT_INITIALIZED", INVALID_ARGUMENT, detail);
}

/** `WASM_TRAP`: an instance (or a worker) that failed and was replaced. @param {string} detail */
export function trapError(detail) {
  return jobgraphError("WASM_TRAP", EXECUTION_FAILED, detail);
}

/** `UNEXPECTED`: a state the package never expects (a bug to report). @param {string} detail */
export function unexpected(detail) {
  return jobgraphError("UNEXPECTED", UNEXPECTED, detail);
}

/** A run on an `EventSet` after its `free()`. @param {string} what the call, e.g. `runJob` */
export function freedError(what) {
  return invalidArgument(`${what}: this EventSet was freed (free() or dispose); load the events again with loadEvents()`);
}

/**
 * The `JobgraphError` a WebAssembly module meant by throwing `thrown`: the main module throws
 * the error's fields as a plain object, the grok module as their JSON text. `null` for anything
 * else (an `Error`, a trap).
 *
 * @param {unknown} thrown
 * @returns {JobgraphError | null}
 */
export function fromThrown(thrown) {
  let fields = thrown;
  if (typeof thrown === "string" && thrown.startsWith("{")) {
    try {
      fields = JSON.parse(thrown);
    } catch {
      return null;
    }
  }
  if (fields && typeof fields === "object" && !(fields instanceof Error)) {
    const info = /** @type {{code?: unknown, message?: unknown}} */ (fields);
    if (typeof info.code === "string" && typeof info.message === "string") return new JobgraphError(/** @type {any} */ (info));
  }
  return null;
}

/**
 * `error` as a plain object that crosses `postMessage` (a worker's answer) and that the page
 * turns back into the same `JobgraphError` with `new JobgraphError(plain)`; anything but a
 * `JobgraphError` becomes `UNEXPECTED`, with its stack.
 *
 * @param {unknown} error
 */
export function toPlain(error) {
  if (error instanceof JobgraphError) return { ...error, message: error.message };
  const thrown = /** @type {{stack?: unknown} | null | undefined} */ (error);
  return { code: "UNEXPECTED", prefix: UNEXPECTED, message: String(thrown?.stack ?? error) };
}
