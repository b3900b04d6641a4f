// `jobgraph/slim`: the same API as `jobgraph`, without loading the WebAssembly module at import.
// Call `await init(source)` first; until then synchronous calls throw `NOT_INITIALIZED`.
export * from "./index.js";
