// `runJob` of a job with a `grok-parser` (issue 36): it runs in the grok module, which the
// package loads at the first such run and never before. Through `jobgraph/slim`, whose `init`
// takes the grok module's source (`{grok}`), so that the test sees when it is asked for.
// (The records themselves equal the native ones: grok.json of the pipeline conformance cases,
// in pipeline.node.test.mjs and pipeline.browser.test.mjs.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import * as slim from "../../pkg/slim.js";
import { createWorkerResolver } from "../../pkg/worker-node.js";

const wasm = (name) => readFile(new URL(`../../pkg/wasm/${name}`, import.meta.url));

const GROK = {
  type: "grok-parser",
  name: "parse",
  grokParsingRules: ["access %{ipOrHost:client} %{word:method} %{notSpace:path} %{integer:status}"],
};
const graph = (middle) => ({
  vertices: [{ type: "logs-iceberg-table-source", name: "src" }, ...middle, { type: "logs-sync-sink", name: "out" }],
  edges: middle.length ? ["src -> mid", "mid -> out"] : ["src -> out"],
});
const LINES = ["10.0.0.1 GET /a 200", "10.0.0.2 POST /b 503", "not an access line"];
const events = LINES.map((message, i) => ({ id: `e${i + 1}`, message }));

test("the grok module is loaded at the first run that needs it, once; EventSets follow it", async () => {
  let asked = 0;
  await slim.init(await wasm("jobgraph_wasm_bg.wasm"), {
    grok: () => {
      asked += 1;
      return wasm("jobgraph_grok_wasm_bg.wasm");
    },
  });

  // A job without a grok-parser: the grok module is never asked for.
  const filter = { type: "logs-filter", name: "mid", predicate: { type: "datadog-query", query: "GET" } };
  const filtered = await slim.runJob(graph([filter]), events);
  assert.deepEqual(filtered.sinks.out.map((e) => e.id), ["e1"]);
  assert.equal(asked, 0);

  // With one: loaded now, and the lines parsed (attributes as the rule names them).
  const parsed = await slim.runJob(graph([{ ...GROK, name: "mid" }]), events);
  assert.equal(asked, 1);
  const parse = parsed.vertices.find((v) => v.name === "mid");
  assert.equal(parse.simulated, true);
  assert.deepEqual(parse.notes ?? [], []);
  assert.deepEqual(parsed.sinks.out.map((e) => e.attributes ?? null), [
    { client: "10.0.0.1", method: "GET", path: "/a", status: 200 },
    { client: "10.0.0.2", method: "POST", path: "/b", status: 503 },
    null,
  ]);

  // An EventSet read by the main module is read into the grok module at its first grok run,
  // then both runs keep working on it; a second grok run loads nothing more.
  const set = slim.loadEvents(events);
  const onSet = await slim.runJob(graph([{ ...GROK, name: "mid" }]), set);
  assert.deepEqual(onSet.sinks, parsed.sinks);
  assert.deepEqual((await slim.runJob(graph([filter]), set)).sinks, filtered.sinks);
  assert.deepEqual((await slim.runJob(graph([{ ...GROK, name: "mid" }]), set)).sinks, parsed.sinks);
  assert.equal(asked, 1);
  set.free();
  await assert.rejects(slim.runJob(graph([{ ...GROK, name: "mid" }]), set), (e) => e.code === "INVALID_ARGUMENT" && /freed/.test(e.message));

  // The worker resolver's workers take the grok module `init` was given (a compiled module).
  await slim.init(await wasm("jobgraph_wasm_bg.wasm"), { grok: await WebAssembly.compile(await wasm("jobgraph_grok_wasm_bg.wasm")) });
  const worker = await createWorkerResolver({ timeoutMs: 5000 });
  try {
    const inWorker = await worker.runJob(graph([{ ...GROK, name: "mid" }]), events);
    assert.deepEqual(inWorker.sinks, parsed.sinks);
    const workerSet = await worker.loadEvents(events);
    assert.deepEqual((await worker.runJob(graph([{ ...GROK, name: "mid" }]), workerSet, { incremental: true })).sinks, parsed.sinks);
  } finally {
    worker.terminate();
  }

  // Errors of a run in the grok module are JobgraphErrors as in the main one, naming the vertex.
  const bad = { ...GROK, name: "mid", grokParsingRules: ["broken %{notAMatcher:x}"] };
  await assert.rejects(slim.runJob(graph([bad]), events), (e) => {
    assert.equal(e.name, "JobgraphError");
    assert.equal(e.code, "INVALID_JOB_GRAPH");
    assert.match(e.message, /vertex mid: Invalid grok rule broken at 1:/);
    return true;
  });
});
