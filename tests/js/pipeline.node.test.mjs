// Parity in Node: every query and pipeline conformance case through the package equals the
// native outcome; runJob resolves a job first; the worker resolver runs jobs too.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile, readdir } from "node:fs/promises";
import * as api from "../../pkg/index.node.js";
import { createWorkerResolver } from "../../pkg/worker.node.js";
import { compare } from "./conformance-runner.mjs";
import { loadPipelineCases, loadQueryFiles, nativePipelineOutcomes, packageOutcomes } from "./pipeline-cases.mjs";
import { pipelineOutcomes, queryOutcomes } from "./pipeline-runner.mjs";

const native = await nativePipelineOutcomes();

test("query cases: Node equals native", async () => {
  const files = await loadQueryFiles();
  const outcomes = queryOutcomes(api, files);
  assert.ok(Object.keys(outcomes).length >= 150);
  assert.equal(Object.keys(native.queries).length, Object.keys(outcomes).length);
  const differences = compare(native.queries, outcomes);
  assert.deepEqual(differences, [], differences.join("\n"));
});

test("pipeline cases: Node equals native", async () => {
  const cases = await loadPipelineCases();
  const outcomes = await pipelineOutcomes(api, cases);
  const expected = packageOutcomes(native.pipelines, cases);
  assert.equal(Object.keys(expected).length, cases.length);
  const differences = compare(expected, outcomes);
  assert.deepEqual(differences, [], differences.join("\n"));
});

test("checkQuery: the tree, or INVALID_QUERY with column and caret", () => {
  assert.equal(api.checkQuery("a OR b").kind, "or");
  assert.throws(() => api.checkQuery("(level:error (service:web"), (e) => {
    assert.equal(e.code, "INVALID_QUERY");
    assert.equal(e.column, 14);
    assert.equal(e.message, "Invalid query: unbalanced parenthesis: `(` at column 14 is never closed");
    assert.equal(e.caret, "  (level:error (service:web\n               ^");
    return true;
  });
});

const root = new URL("../../", import.meta.url);
const readJson = async (path) => JSON.parse(await readFile(new URL(path, root), "utf8"));

/** examples/templates as a templates folder holds them: JSON, with the script in a `.js` beside it. */
async function exampleTemplates() {
  const names = (await readdir(new URL("examples/templates/", root))).filter((f) => f.endsWith(".json"));
  const list = [];
  for (const name of names) {
    const t = await readJson(`examples/templates/${name}`);
    if (!t.template) t.template = await readFile(new URL(`examples/templates/${name.replace(/\.json$/, ".js")}`, root), "utf8");
    list.push(t);
  }
  return list;
}

test("runJob resolves the example job, runs it in draft mode, in-process and in the worker", async (t) => {
  const job = await readJson("examples/jobs/errors-to-vendor.json");
  const events = (await readFile(new URL("examples/events/sample.ndjson", root), "utf8")).trim().split("\n").map((l) => JSON.parse(l));
  const templates = await exampleTemplates();
  const run = await api.runJob(job, events, { templates, draft: true, keep: 5, user: "node" });
  const filter = run.vertices.find((v) => v.name === "export.severity.filter");
  assert.equal(filter.eventsIn, 300);
  assert.equal(filter.eventsIn, filter.eventsOut + filter.eventsDropped);
  assert.equal(filter.output.length, 5);
  assert.equal(filter.dropped[0].droppedBy, "export.severity.filter");
  assert.equal(run.provenance["export.severity.filter"].operationPath.join(">"), "export>severity");
  const preview = run.vertices.find((v) => !v.simulated);
  assert.ok(preview?.notes?.[0]?.startsWith("not simulated"), "the draft-only vertex is reported");
  const sink = run.sinks["export.vendor"];
  assert.equal(sink.length, filter.eventsOut);
  assert.deepEqual(sink[0].tags.enrichedBy, ["node"]);

  const worker = await createWorkerResolver({ timeoutMs: 5000 });
  t.after(() => worker.terminate());
  const viaWorker = await worker.runJob(job, events, { templates, draft: true, keep: 5, user: "node" });
  assert.deepEqual(viaWorker, run);
  // Lazily fetched: the asked version, else the latest, as a service answers.
  const fetchTemplate = async (id, version) =>
    templates.filter((x) => x.id === id && (version === undefined || x.version === version)).sort((a, b) => b.version - a.version)[0] ?? null;
  const lazy = await worker.runJob(job, events, { fetchTemplate, user: "node" });
  const direct = await api.runJob(job, events, { templates, user: "node" });
  assert.deepEqual(lazy.sinks, direct.sinks);
  await assert.rejects(worker.checkQuery("a AND"), (e) => e.code === "INVALID_QUERY" && e.column === 3);
});
