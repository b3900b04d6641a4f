// Events read once into the module (`loadEvents` → EventSet) and run many times, in-process and
// through the worker resolver: the same results as events passed as an array (`keepVertices`
// keeping the named vertices' events only), every pipeline
// conformance case equal to native, clear errors for bad events and freed sets, and sets that
// survive a trap and a worker replaced after a script that never ends.
// Run: node --test --test-concurrency=1 tests/js/event-set.node.test.mjs   (needs pkg/wasm built)
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile, readdir } from "node:fs/promises";
import * as api from "../../pkg/index.node.js";
import { createWorkerResolver } from "../../pkg/worker.node.js";
import { compare } from "./conformance-runner.mjs";
import { loadPipelineCases, nativePipelineOutcomes, packageOutcomes } from "./pipeline-cases.mjs";
import { pipelineOutcomes } from "./pipeline-runner.mjs";

const root = new URL("../../", import.meta.url);
const readJson = async (path) => JSON.parse(await readFile(new URL(path, root), "utf8"));
const sampleText = await readFile(new URL("examples/events/sample.ndjson", root), "utf8");
const sample = sampleText.trim().split("\n").map((l) => JSON.parse(l));
const job = await readJson("examples/jobs/errors-to-vendor.json");

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
const templates = await exampleTemplates();
const options = { templates, keep: 7, user: "node" };

/** A job whose one template operation never ends (its own limits let it run). */
const spinJob = {
  vertices: [
    { type: "template-operation", name: "spin", templateId: "spin" },
    { type: "logs-sync-sink", name: "out" },
  ],
  edges: ["spin -> out"],
};
const spinOptions = {
  templates: [{ id: "spin", version: 1, name: "Spin", template: "while (true) {}", inputs: { input: "x:input" }, outputs: { output: "x:output" } }],
  limits: { timeoutMs: 600000, loopIterations: 1e15 },
};

const isFreed = (e) => {
  assert.ok(e instanceof api.JobgraphError);
  assert.equal(e.code, "INVALID_ARGUMENT");
  assert.equal(e.message, "Invalid argument: runJob: this EventSet was freed (free() or dispose); load the events again with loadEvents()");
  return true;
};

test("an EventSet gives the run of the same events passed as an array, run after run", async () => {
  const expected = await api.runJob(job, sample, options);
  const fromText = api.loadEvents(sampleText);
  const fromArray = api.loadEvents(sample);
  assert.ok(fromText instanceof api.EventSet);
  assert.equal(fromText.length, 300);
  assert.equal(fromArray.length, 300);
  for (let i = 0; i < 3; i++) {
    assert.deepEqual(await api.runJob(job, fromText, options), expected);
    assert.deepEqual(await api.runJob(job, fromArray, options), expected);
  }
  // The run did not consume the set: the sink still gets every event that passes.
  const bare = await api.runJob({ vertices: [{ type: "logs-iceberg-table-source", name: "s" }, { type: "logs-sync-sink", name: "k" }], edges: ["s -> k"] }, fromText);
  assert.deepEqual(bare.sinks.k, (await api.runJob({ vertices: [{ type: "logs-iceberg-table-source", name: "s" }, { type: "logs-sync-sink", name: "k" }], edges: ["s -> k"] }, sample)).sinks.k);
  assert.equal(bare.sinks.k.length, 300);
  // keepVertices: the events of the named vertices only, every count and sink unchanged.
  const filter = "export.severity.filter";
  const only = await api.runJob(job, fromText, { ...options, keepVertices: [filter] });
  assert.deepEqual(only.edges, expected.edges);
  assert.deepEqual(only.sinks, expected.sinks);
  for (const [i, v] of only.vertices.entries()) {
    const { output, dropped, ...counts } = expected.vertices[i];
    const { output: o, dropped: d, ...same } = v;
    assert.deepEqual(same, counts);
    assert.deepEqual(o, v.name === filter ? output : []);
    assert.deepEqual(d, v.name === filter ? dropped : undefined);
  }
  assert.ok(only.vertices.find((v) => v.name === filter).output.length > 0);
  await assert.rejects(api.runJob(job, fromText, { ...options, keepVertices: filter }), (e) => e.code === "INVALID_ARGUMENT" && /^Invalid argument: options: /.test(e.message));
  fromText.free();
  fromArray.free();
  assert.equal(api.loadEvents("").length, 0);
  assert.equal(api.loadEvents("[]").length, 0);
});

test("pipeline cases through EventSets: Node equals native", async () => {
  const native = await nativePipelineOutcomes();
  const cases = await loadPipelineCases();
  const outcomes = await pipelineOutcomes(api, cases, { eventSet: true });
  const expected = packageOutcomes(native.pipelines, cases);
  assert.equal(Object.keys(expected).length, cases.length);
  const differences = compare(expected, outcomes);
  assert.deepEqual(differences, [], differences.join("\n"));
});

test("loadEvents: a bad event is INVALID_EVENTS naming its line or its place in the array", () => {
  const good = JSON.stringify(sample[0]);
  assert.throws(() => api.loadEvents(`${good}\n\n{"id": "y", "tags": {"service": "auth"}}\n${good}`), (e) => {
    assert.ok(e instanceof api.JobgraphError);
    assert.equal(e.code, "INVALID_EVENTS");
    assert.match(e.message, /^Invalid events: line 3: tags\.service must be an array of strings, found a string/);
    return true;
  });
  assert.throws(() => api.loadEvents(`${good}\n{"id": "x", "message": \n`), (e) => e.code === "INVALID_EVENTS" && /^Invalid events: line 2: /.test(e.message));
  assert.throws(() => api.loadEvents([sample[0], { eventTimestamp: "yesterday" }]), (e) => e.code === "INVALID_EVENTS" && /^Invalid events: event 2: eventTimestamp /.test(e.message));
  assert.throws(() => api.loadEvents(42), (e) => e.code === "INVALID_ARGUMENT" && /^Invalid argument: loadEvents: events must be NDJSON or JSON text, or an array of events; got number$/.test(e.message));
  assert.throws(() => new api.EventSet(), (e) => e.code === "INVALID_ARGUMENT" && /loadEvents/.test(e.message));
});

test("a freed EventSet is a clear error, not a crash; free() twice is fine", async () => {
  const set = api.loadEvents(sampleText);
  set.free();
  set.free();
  assert.equal(set.freed, true);
  await assert.rejects(api.runJob(job, set, options), isFreed);
  // Freed while the job's templates were being resolved: the run fails cleanly too.
  const other = api.loadEvents(sampleText);
  const running = api.runJob(job, other, options);
  other.free();
  await assert.rejects(running, isFreed);
  // Using works where the runtime has explicit resource management.
  if (typeof Symbol.dispose === "symbol") {
    const disposed = api.loadEvents(sampleText);
    disposed[Symbol.dispose]();
    assert.equal(disposed.freed, true);
  }
  // Something else than events or a set.
  await assert.rejects(api.runJob(job, { id: 1 }, options), (e) => e.code === "INVALID_ARGUMENT" && /events must be an array of events or an EventSet/.test(e.message));
  // The package still works.
  assert.equal((await api.runJob(job, sample, options)).vertices.length > 0, true);
});

test("an EventSet survives a trap: the instance that takes over reads it again", async () => {
  const set = api.loadEvents(sampleText);
  const before = await api.runJob(job, set, options);
  const generation = api.instanceGeneration();
  const trapping = { name: "big", template: "'x'.repeat(2 ** 29 + 2 ** 28).length" };
  assert.throws(() => api.testTemplate(trapping, {}, { limits: { maxMemoryBytes: 4 * 2 ** 30 } }), (e) => e.code === "WASM_TRAP");
  assert.equal(api.instanceGeneration(), generation + 1);
  assert.deepEqual(await api.runJob(job, set, options), before);
  set.free();
});

test("worker resolver: loadEvents, the same runs, freed sets, and a worker replaced after `while (true) {}`", async (t) => {
  const worker = await createWorkerResolver({ timeoutMs: 1500 });
  t.after(() => worker.terminate());
  const expected = await api.runJob(job, sample, options);
  const set = await worker.loadEvents(sampleText);
  assert.equal(set.length, 300);
  assert.deepEqual(await worker.runJob(job, set, options), expected);
  assert.deepEqual(await worker.runJob(job, set, options), expected);
  const fromArray = await worker.loadEvents(sample);
  assert.deepEqual(await worker.runJob(job, fromArray, options), expected);

  // Errors: bad events (with the line), a set of another thread or resolver, a freed set.
  await assert.rejects(worker.loadEvents('{"id": 1}\n{"tags": {"a": "b"}}'), (e) => e.code === "INVALID_EVENTS" && /^Invalid events: line 2: tags\.a must be an array/.test(e.message));
  await assert.rejects(worker.loadEvents(7), (e) => e.code === "INVALID_ARGUMENT");
  const local = api.loadEvents(sampleText);
  await assert.rejects(worker.runJob(job, local, options), (e) => e.code === "INVALID_ARGUMENT" && /a worker resolver runs on the sets of its own loadEvents/.test(e.message));
  local.free();
  await assert.rejects(api.runJob(job, set, options), (e) => e.code === "INVALID_ARGUMENT" && /worker resolver's sets run only through that resolver's runJob/.test(e.message));
  const other = await createWorkerResolver({ timeoutMs: 1500 });
  t.after(() => other.terminate());
  await assert.rejects(other.runJob(job, set, options), (e) => e.code === "INVALID_ARGUMENT" && /belongs to another worker resolver/.test(e.message));
  fromArray.free();
  await assert.rejects(worker.runJob(job, fromArray, options), isFreed);

  // A template that never ends: the worker is terminated and replaced; the set goes to the new
  // worker by itself with the next call that uses it (and with calls queued behind the spin).
  const spin = worker.runJob(spinJob, set, spinOptions);
  const behind = worker.runJob(job, set, options);
  await assert.rejects(spin, (e) => e.code === "TIMEOUT");
  assert.deepEqual(await behind, expected);
  assert.equal(worker.replacements(), 1);
  assert.deepEqual(await worker.runJob(job, set, options), expected);
  set.free();
  await assert.rejects(worker.runJob(job, set, options), isFreed);
  assert.deepEqual(await worker.runJob(job, sample, options), expected);
});
