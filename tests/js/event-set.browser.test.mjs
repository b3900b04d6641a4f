// EventSets (`loadEvents`) in headless Chromium: runs on a set equal runs on the same events as
// an array, every pipeline conformance case through sets equals native, a freed set is a clear
// error, and the worker resolver keeps its sets across a worker replaced after `while (true) {}`.
// Run: node --test --test-concurrency=1 tests/js/event-set.browser.test.mjs   (needs pkg/wasm built and /usr/bin/chromium)
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile, readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { openPage } from "./browser.mjs";
import { compare } from "./conformance-runner.mjs";
import { loadPipelineCases, nativePipelineOutcomes, packageOutcomes } from "./pipeline-cases.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const readJson = async (path) => JSON.parse(await readFile(new URL(path, `file://${root}`), "utf8"));

async function exampleTemplates() {
  const names = (await readdir(new URL("examples/templates/", `file://${root}`))).filter((f) => f.endsWith(".json"));
  const list = [];
  for (const name of names) {
    const t = await readJson(`examples/templates/${name}`);
    if (!t.template) t.template = await readFile(new URL(`examples/templates/${name.replace(/\.json$/, ".js")}`, `file://${root}`), "utf8");
    list.push(t);
  }
  return list;
}

test("Chromium: EventSets in-process and through the worker resolver", async (t) => {
  const { page, pageErrors, close } = await openPage(root, { path: "/tests/js/blank.html" });
  t.after(close);
  const native = await nativePipelineOutcomes();
  const cases = await loadPipelineCases();
  const text = await readFile(new URL("examples/events/sample.ndjson", `file://${root}`), "utf8");
  const job = await readJson("examples/jobs/errors-to-vendor.json");
  const templates = await exampleTemplates();
  const out = await page.evaluate(
    async ({ cases, text, job, templates }) => {
      const api = await import("/pkg/index.js");
      const { createWorkerResolver } = await import("/pkg/worker.js");
      const runner = await import("/tests/js/pipeline-runner.mjs");
      const failure = async (promise) => {
        try {
          await promise;
          return null;
        } catch (e) {
          return { code: e.code, message: e.message, isJobgraphError: e instanceof api.JobgraphError };
        }
      };
      const options = { templates, keep: 7, user: "chromium" };
      const events = text.trim().split("\n").map((l) => JSON.parse(l));
      const r = {};
      r.pipelines = await runner.pipelineOutcomes(api, cases, { eventSet: true });
      const expected = await api.runJob(job, events, options);
      const set = api.loadEvents(text);
      r.length = set.length;
      r.sameFromText = JSON.stringify(await api.runJob(job, set, options)) === JSON.stringify(expected);
      r.sameAgain = JSON.stringify(await api.runJob(job, set, options)) === JSON.stringify(expected);
      const fromArray = api.loadEvents(events);
      r.sameFromArray = JSON.stringify(await api.runJob(job, fromArray, options)) === JSON.stringify(expected);
      fromArray.free();
      r.freed = await failure(api.runJob(job, fromArray, options));
      r.badLine = await failure(Promise.resolve().then(() => api.loadEvents(`${JSON.stringify(events[0])}\n{"tags": {"a": "b"}}`)));

      const worker = await createWorkerResolver({ timeoutMs: 1500 });
      try {
        const workerSet = await worker.loadEvents(text);
        r.workerLength = workerSet.length;
        r.workerSame = JSON.stringify(await worker.runJob(job, workerSet, options)) === JSON.stringify(expected);
        const spinJob = { vertices: [{ type: "template-operation", name: "spin", templateId: "spin" }, { type: "logs-sync-sink", name: "out" }], edges: ["spin -> out"] };
        const spinOptions = {
          templates: [{ id: "spin", version: 1, name: "Spin", template: "while (true) {}", inputs: { input: "x:input" }, outputs: { output: "x:output" } }],
          limits: { timeoutMs: 600000, loopIterations: 1e15 },
        };
        const spin = failure(worker.runJob(spinJob, workerSet, spinOptions));
        const behind = worker.runJob(job, workerSet, options);
        r.spin = await spin;
        r.behindSame = JSON.stringify(await behind) === JSON.stringify(expected);
        r.replacements = worker.replacements();
        r.afterSame = JSON.stringify(await worker.runJob(job, workerSet, options)) === JSON.stringify(expected);
        r.workerLocal = await failure(worker.runJob(job, set, options));
        workerSet.free();
        r.workerFreed = await failure(worker.runJob(job, workerSet, options));
      } finally {
        await worker.terminate();
        set.free();
      }
      return r;
    },
    { cases, text, job, templates },
  );
  const differences = compare(packageOutcomes(native.pipelines, cases), out.pipelines);
  assert.deepEqual(differences, [], differences.join("\n"));
  assert.equal(out.length, 300);
  assert.ok(out.sameFromText && out.sameAgain && out.sameFromArray, "runs on sets equal runs on the array");
  const freedMessage = "Invalid argument: runJob: this EventSet was freed (free() or dispose); load the events again with loadEvents()";
  assert.deepEqual(out.freed, { code: "INVALID_ARGUMENT", message: freedMessage, isJobgraphError: true });
  assert.equal(out.badLine.code, "INVALID_EVENTS");
  assert.match(out.badLine.message, /^Invalid events: line 2: tags\.a must be an array of strings/);
  assert.equal(out.workerLength, 300);
  assert.ok(out.workerSame, "the worker's run on its set equals the in-process run");
  assert.equal(out.spin?.code, "TIMEOUT");
  assert.ok(out.behindSame && out.afterSame, "the replaced worker got the set again by itself");
  assert.equal(out.replacements, 1);
  assert.equal(out.workerLocal?.code, "INVALID_ARGUMENT");
  assert.equal(out.workerFreed?.message, freedMessage);
  assert.deepEqual(pageErrors, []);
});
