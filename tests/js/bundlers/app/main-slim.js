// The app for bundlers that leave `new URL("./…", import.meta.url)` alone (esbuild): the module
// is imported as a file (esbuild's `file` loader gives its address) and handed to `init`.
import * as api from "jobgraph/slim";
import { createWorkerResolver } from "jobgraph/slim/worker";
import wasmUrl from "jobgraph/jobgraph.wasm";
import { publish, runChecks } from "./checks.js";

publish(api.init(new URL(wasmUrl, import.meta.url)).then(() => runChecks(api, createWorkerResolver)));
