// The package's one loader and trap recovery, for both of its WebAssembly modules: the main one
// (`main-module.js`, used by `slim.js` and the worker resolver) and the grok one
// (`grok-core.js`). Internal: no entry of the package exports it.
//
// `compileModule(source)` compiles what `init` was given (a URL, a Response or its promise,
// bytes, a compiled module), with `WASM_LOAD_FAILED` errors that say what was found instead.
// `createRuntime(…)` keeps one module's instances. `raw` serves every call; `standby` is a second
// one, instantiated ahead, that takes over synchronously when `raw` traps (a trapped instance is
// never called again: its shadow stack pointer, allocator and engine state are wherever the trap
// left them). A new standby is then instantiated in the background from the module compiled
// once by `init`.

import { JobgraphError, fromThrown, loadError, notInitialized, trapError } from "./errors.js";

/**
 * Where `source` came from, for error messages.
 * @param {unknown} source
 */
function describe(source) {
  if (typeof source === "string" || source instanceof URL) return String(source);
  if (typeof Response !== "undefined" && source instanceof Response) return source.url || "the Response given to init()";
  return "the bytes given to init()";
}

/**
 * Compiles what `init` was given: a module, bytes, a Response (or its promise), a URL.
 *
 * @param {unknown} given
 * @returns {Promise<WebAssembly.Module>}
 */
export async function compileModule(given) {
  let source;
  try {
    source = await given;
  } catch (error) {
    throw error instanceof JobgraphError ? error : loadError(`reading it failed (${error?.message ?? error})`);
  }
  if (source instanceof WebAssembly.Module) return source;
  let bytes = source;
  if (typeof source === "string" || source instanceof URL) {
    let response;
    try {
      response = await fetch(source);
    } catch (error) {
      throw loadError(`fetching ${source} failed (${error?.message ?? error}); pass init() the module's URL, a Response, its bytes or a compiled WebAssembly.Module`);
    }
    return compileModule(response);
  }
  if (typeof Response !== "undefined" && source instanceof Response) {
    if (!source.ok) {
      throw loadError(`${describe(source)} answered HTTP ${source.status}: the file is not there (with a bundler, see "Use with a bundler" in the package's README; to host it yourself, pass its URL to init())`);
    }
    const type = source.headers.get("content-type") ?? "";
    if (typeof WebAssembly.compileStreaming === "function" && type.split(";")[0].trim() === "application/wasm") {
      try {
        return await WebAssembly.compileStreaming(source);
      } catch (error) {
        throw loadError(`${describe(source)} is not a valid WebAssembly module (${error?.message ?? error})`);
      }
    }
    bytes = await source.arrayBuffer();
  }
  if (!(bytes instanceof ArrayBuffer) && !ArrayBuffer.isView(bytes)) {
    throw loadError(`init() takes a URL, a Response (or a promise of one), an ArrayBuffer or typed array, or a WebAssembly.Module; got ${source === null ? "null" : typeof source}`);
  }
  try {
    return await WebAssembly.compile(/** @type {BufferSource} */ (bytes));
  } catch (error) {
    const view = ArrayBuffer.isView(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 16)) : new Uint8Array(bytes, 0, Math.min(bytes.byteLength, 16));
    const start = String.fromCharCode(...view).replace(/[^\x20-\x7e]/g, ".");
    const hint = start.startsWith("<") ? ": it looks like an HTML page, as a server answers for a missing file (with a bundler, see \"Use with a bundler\" in the package's README)" : "";
    throw loadError(`${describe(given instanceof Promise ? source : given)} is not a WebAssembly module (it starts with ${JSON.stringify(start)})${hint} (${error?.message ?? error})`);
  }
}

/**
 * The bindings of one instance, as wasm-bindgen's glue wrapped by `scripts/glue-factory.mjs`
 * makes them: `default` instantiates asynchronously, `initSync` synchronously; the module's own
 * functions and classes beside them.
 *
 * @typedef {{default: (init: {module_or_path: WebAssembly.Module}) => Promise<unknown>,
 *   initSync: (init: {module: WebAssembly.Module}) => unknown}} Bindings
 */

/**
 * The instances of one WebAssembly module, replaced after a trap.
 *
 * @template {Bindings} B
 * @param {object} spec
 * @param {() => B} spec.createBindings the glue's factory: one fresh, uninstantiated binding per call
 * @param {string} spec.instance what traps, for `WASM_TRAP` messages: `the WebAssembly instance`
 * @param {string} spec.notLoaded the detail of `NOT_INITIALIZED` (a call before `init`)
 * @param {string} spec.noSource the detail of `WASM_LOAD_FAILED` for `init()` without a source
 * @param {boolean} spec.standby whether to keep a standby instance ready (the main module), or
 *   to instantiate a new one only when needed (the grok module)
 */
export function createRuntime({ createBindings, instance: what, notLoaded, noSource, standby: keepStandby }) {
  /** The compiled module, once `init` has succeeded. @type {WebAssembly.Module | null} */
  let wasmModule = null;
  /** The `init` in progress (the latest one), so that asynchronous calls made meanwhile wait for it. @type {Promise<unknown> | null} */
  let loading = null;
  /** The instance in service. @type {B | null} */
  let raw = null;
  /** @type {B | null} */
  let standby = null;
  /** @type {Promise<void> | null} */
  let refilling = null;
  /** Instances taken into service so far (the first one included). */
  let generation = 0;

  /** @returns {Promise<B>} */
  async function instantiate() {
    const bindings = createBindings();
    await bindings.default({ module_or_path: /** @type {WebAssembly.Module} */ (wasmModule) });
    return bindings;
  }

  /** @returns {B} */
  function instantiateNow() {
    const bindings = createBindings();
    bindings.initSync({ module: /** @type {WebAssembly.Module} */ (wasmModule) });
    return bindings;
  }

  function refill() {
    if (!keepStandby || standby || refilling || !wasmModule) return;
    refilling = instantiate()
      .then((bindings) => {
        standby = bindings;
      })
      .catch(() => {})
      .finally(() => {
        refilling = null;
      });
  }

  /**
   * Takes a healthy instance into service in place of the trapped one: the standby when it is
   * ready, else one instantiated now (synchronously, from the compiled module); if even that is
   * refused, none until the next standby is ready (see `instance()`).
   */
  function replaceTrapped() {
    generation += 1;
    if (standby) {
      raw = standby;
      standby = null;
    } else {
      try {
        raw = instantiateNow();
      } catch {
        raw = null;
      }
    }
    refill();
  }

  /**
   * The instance in service; throws `WASM_TRAP` in the rare moment none is ready (sync calls).
   * @returns {B}
   */
  function instance() {
    if (raw) return raw;
    if (!wasmModule) throw notInitialized(notLoaded);
    try {
      raw = instantiateNow();
      return raw;
    } catch (error) {
      throw trapError(`no healthy WebAssembly instance is ready yet after a trap (${error?.message ?? error}); retry, or await an asynchronous call`);
    }
  }

  /**
   * Throws what `error` means: a module's error as a `JobgraphError`; a trap as `WASM_TRAP`,
   * the trapped instance replaced first.
   * @param {unknown} error
   * @returns {never}
   */
  function rethrow(error) {
    const thrown = fromThrown(error);
    if (thrown) throw thrown;
    if (error instanceof JobgraphError) throw error;
    // A trap (out of memory, stack overflow in linear memory) or the engine's own stack limit
    // (RangeError thrown through wasm frames) leaves the instance unusable.
    if (error instanceof WebAssembly.RuntimeError || error instanceof RangeError) {
      replaceTrapped();
      throw trapError(`${what} trapped (${error.message}); the next call runs on a fresh instance`);
    }
    throw error;
  }

  return {
    /**
     * Loads the module from `source` (see `compileModule`) and takes a fresh instance of it
     * into service. Calls made while it runs wait for it (asynchronous ones) or fail with
     * `NOT_INITIALIZED` (synchronous ones). Calling it again replaces the module and the
     * instance in service.
     * @param {unknown} source
     * @returns {Promise<void>}
     */
    init(source) {
      const attempt = (async () => {
        if (source === undefined) throw loadError(noSource);
        const module = await compileModule(source);
        const bindings = createBindings();
        await bindings.default({ module_or_path: module });
        return { module, bindings };
      })();
      loading = attempt;
      return attempt.then(
        ({ module, bindings }) => {
          if (loading === attempt) loading = null;
          wasmModule = module;
          raw = bindings;
          standby = null;
          generation += 1;
          refill();
        },
        (error) => {
          if (loading === attempt) loading = null;
          throw error;
        },
      );
    },

    /**
     * The compiled module once the `init` in progress (if any) has ended (for the workers of
     * `createWorkerResolver`); throws `NOT_INITIALIZED` when there is none.
     * @returns {Promise<WebAssembly.Module>}
     */
    async loadedModule() {
      if (!wasmModule && loading) await loading.catch(() => {});
      if (!wasmModule) throw notInitialized(notLoaded);
      return wasmModule;
    },

    /** Whether `init` has succeeded. */
    loaded: () => wasmModule !== null,

    instance,

    /**
     * As `instance()`, waiting for the `init` in progress, or for the standby when none can be
     * made synchronously.
     * @returns {Promise<B>}
     */
    async instanceAsync() {
      if (!wasmModule) {
        if (!loading) throw notInitialized(notLoaded);
        await loading;
      }
      while (!raw) {
        if (standby) {
          raw = standby;
          standby = null;
          refill();
        } else {
          refill();
          await refilling;
          if (!standby && !raw) return instance();
        }
      }
      return raw;
    },

    /** Replaces the instance in service with a fresh one (never needed after a trap). */
    async reload() {
      if (!wasmModule) throw notInitialized(notLoaded);
      const bindings = await instantiate();
      generation += 1;
      raw = bindings;
    },

    rethrow,

    /**
     * `fn()`, its errors through `rethrow`.
     * @template T
     * @param {() => T} fn
     * @returns {T}
     */
    call(fn) {
      try {
        return fn();
      } catch (error) {
        rethrow(error);
      }
    },

    /** How many instances have served calls so far: 1 until the first trap or `reload()`. */
    generation: () => generation,
  };
}
