// `runJob(job, set, {incremental: true})` gives the record a whole run gives, byte for byte,
// whatever changed since the set's previous incremental run (wasm/src/incremental/): every
// pipeline conformance case, then each of its vertices edited in turn (an extra field, and a real
// change of its settings where the type has one), back and forth, each run compared with a whole
// run of the same graph (its record as JSON text, or its error). Then the draft preview's
// grok + reducer job on examples/events/app.log, its reducer edited keystroke by keystroke.
//
// Incremental runs are built into the grok module only (the main module's size budget), where
// a job with a `grok-parser` runs: every graph here gets one more vertex, a grok parser that
// no edge reaches (it handles nothing), so that both runs take place there.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import * as api from "../../pkg/index.node.js";
import { loadPipelineCases } from "./pipeline-cases.mjs";

/** The outcome of a run as text: the record, or the error's code and message. */
async function outcome(promise) {
  try {
    return JSON.stringify(await promise);
  } catch (error) {
    return `error ${error?.code}: ${error?.message ?? error}`;
  }
}

/** A vertex that sends the run to the grok module and changes nothing else. */
const IDLE_GROK = { type: "grok-parser", name: "idle-grok", grokParsingRules: ["idle %{word:never}"] };

/** Graphs to run one after the other: the case's, each vertex touched and edited, and back. */
function* variants(original) {
  if (!Array.isArray(original?.vertices)) {
    yield original;
    return;
  }
  const graph = { ...original, vertices: [...original.vertices, IDLE_GROK] };
  const vertices = graph.vertices;
  yield graph;
  for (let i = 0; i < vertices.length; i++) {
    const at = (vertex) => ({ ...graph, vertices: vertices.map((v, k) => (k === i ? vertex : v)) });
    const v = vertices[i];
    yield at({ ...v, "x-edit": i });
    for (const edit of edits(v)) {
      yield at({ ...v, ...edit });
      // The same again (all reused), then back to the case's graph.
      yield at({ ...v, ...edit });
      yield graph;
    }
  }
  yield graph;
}

/** Changes of settings that change what a vertex does, by type. */
function edits(vertex) {
  switch (vertex?.type) {
    case "logs-filter":
      return [{ inverted: !vertex.inverted }];
    case "log-reducer":
    case "pattern-matcher":
      return [{ similarityThreshold: 40 }, { similarityThreshold: 100, dedupThreshold: 2 }];
    case "grok-parser":
      return Array.isArray(vertex.grokParsingRules) && vertex.grokParsingRules.length > 1 ? [{ grokParsingRules: vertex.grokParsingRules.slice(1) }] : [];
    case "log-transform":
      return Array.isArray(vertex.transforms) && vertex.transforms.length > 1 ? [{ transforms: [...vertex.transforms].reverse() }] : [];
    default:
      return [];
  }
}

test("incremental runs equal whole runs: every pipeline case, each vertex edited in turn", async () => {
  const cases = await loadPipelineCases();
  assert.ok(cases.length >= 100, `${cases.length} cases`);
  let runs = 0;
  let failures = [];
  for (const c of cases) {
    const options = { tables: c.tables ?? {} };
    let set;
    try {
      set = api.loadEvents(c.events ?? []);
    } catch {
      continue; // cases about bad events: no set to run incrementally on
    }
    try {
      for (const graph of variants(c.graph)) {
        const whole = await outcome(api.runJob(graph, c.events ?? [], options));
        const incremental = await outcome(api.runJob(graph, set, { ...options, incremental: true }));
        runs += 1;
        if (incremental !== whole) failures.push(`${c.name}: ${JSON.stringify(graph).slice(0, 300)}\n  whole:       ${whole.slice(0, 400)}\n  incremental: ${incremental.slice(0, 400)}`);
      }
    } finally {
      set.free();
    }
  }
  assert.ok(runs >= 500, `${runs} runs`);
  assert.deepEqual(failures, [], failures.slice(0, 5).join("\n"));
});

test("incremental runs of the preview's grok + reducer job: a keystroke in the reducer, byte for byte", async () => {
  const root = new URL("../../", import.meta.url);
  const job = JSON.parse(await readFile(new URL("examples/jobs/reduce-logs.json", root), "utf8"));
  const template = JSON.parse(await readFile(new URL("examples/templates/iceberg-source.json", root), "utf8"));
  template.template = await readFile(new URL("examples/templates/iceberg-source.js", root), "utf8");
  const { output } = await api.resolve(job, { templates: [template] });
  const lines = (await readFile(new URL("examples/events/app.log", root), "utf8")).split("\n").filter(Boolean);
  const events = lines.map((message, i) => ({ id: `line-${i + 1}`, message }));
  const set = api.loadEvents(events);
  const resolved = output.jobGraph;
  const reducer = resolved.vertices.findIndex((v) => v.type === "log-reducer");
  assert.ok(reducer > 0 && resolved.vertices.some((v) => v.type === "grok-parser"));
  const counts = new Set();
  try {
    // Typing "45" then "60" into the similarity threshold, one key at a time.
    for (const threshold of [4, 45, 4, 6, 60, 70]) {
      const graph = structuredClone(resolved);
      graph.vertices[reducer].similarityThreshold = threshold;
      const options = { keep: 50, keepVertices: [graph.vertices[reducer].name] };
      const whole = await outcome(api.runJob(graph, events, options));
      const incremental = await outcome(api.runJob(graph, set, { ...options, incremental: true }));
      assert.equal(incremental, whole, `similarityThreshold ${threshold}`);
      if (!whole.startsWith("error")) counts.add(JSON.parse(whole).vertices[reducer].patterns.length);
    }
  } finally {
    set.free();
  }
  assert.ok(counts.size >= 2, "the threshold changes the patterns");
  await assert.rejects(api.runJob(resolved, events, { incremental: true }), (e) => e.code === "INVALID_ARGUMENT" && /needs an EventSet/.test(e.message));
});
