// Runs inside the module Web Worker that `createWorkerResolver` starts in browsers: takes the
// compiled module from the page's first message, instantiates it, then serves calls. No
// top-level await and no dynamic import, so that bundlers may emit it in any worker format.
import { init } from "./slim.js";
import { serve } from "./internal/worker-serve.js";
import { setGrokSource } from "./internal/grok-core.js";

// A `runJob` of a job with a `grok-parser` loads the grok module in the worker, at the first such
// run: from the source the page's `init(…, {grok})` was given (sent with the module), else from
// beside this file (written literally, the form bundlers rewrite).
setGrokSource(() => new URL("./wasm/jobgraph_grok_wasm_bg.wasm", import.meta.url));

function first(event) {
  if (event.data?.type !== "init") return;
  self.removeEventListener("message", first);
  if (event.data.grok !== undefined) setGrokSource(event.data.grok, true);
  init(event.data.module).then(
    () => serve((message) => self.postMessage(message), (handler) => self.addEventListener("message", (e) => handler(e.data))),
    (error) => {
      // An uncaught error ends in the page's `error` handler: the resolver reports it.
      setTimeout(() => {
        throw error;
      });
    },
  );
}
self.addEventListener("message", first);
