// Runs inside the worker thread that `createWorkerResolver` starts in Node: instantiates the
// compiled module it was given (`workerData`), then serves calls.
import { parentPort, workerData } from "node:worker_threads";
import { init } from "./slim.js";
import { serve } from "./internal/worker-serve.js";

await init(workerData?.module);
serve((message) => parentPort.postMessage(message), (handler) => parentPort.on("message", handler));
