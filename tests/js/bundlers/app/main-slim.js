// The app for bundlers that leave `new URL("./…", import.meta.url)` alone (esbuild): the modules
// are imported as files (esbuild's `file` loader gives their addresses) and handed to `init`
// (the grok module, for `runJob` of a job with a grok parser, is fetched at the first one).
import * as api from "jobgraph/slim";
import { createWorkerResolver } from "jobgraph/slim/worker";
import wasmUrl from "jobgraph/jobgraph.wasm";
import grokUrl from "jobgraph/grok.wasm";
import { publish, runChecks } from "./checks.js";

const grok = new URL(grokUrl, import.meta.url);
publish(api.init(new URL(wasmUrl, import.meta.url), { grok }).then(() => runChecks(api, createWorkerResolver)));
