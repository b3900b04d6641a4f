// Runs inside the worker thread that `createWorkerResolver` starts in Node: instantiates the
// compiled module it was given (`workerData`), then serves calls.
import { parentPort, workerData } from "node:worker_threads";
import { readFile } from "node:fs/promises";
import { init } from "./slim.js";
import { serve } from "./internal/worker-serve.js";
import { setGrokSource } from "./internal/grok-core.js";

// A `runJob` of a job with a `grok-parser` reads the grok module in the worker, at the first such
// run: the source the resolver's `init(…, {grok})` was given, else the file beside this one.
if (workerData?.grok !== undefined) setGrokSource(workerData.grok, true);
else setGrokSource(() => readFile(new URL("./wasm/jobgraph_grok_wasm_bg.wasm", import.meta.url)));
await init(workerData?.module);
serve((message) => parentPort.postMessage(message), (handler) => parentPort.on("message", handler));
