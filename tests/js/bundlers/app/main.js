// The app as a bundler user writes it: the package's two entry points, nothing else.
import * as api from "jobgraph";
import { createWorkerResolver } from "jobgraph/worker";
import { publish, runChecks } from "./checks.js";

publish(runChecks(api, createWorkerResolver));
