// createResolver: the cached resolver for live previews (issue 8, point 4), in Node.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import * as api from "../../pkg/index.node.js";

const { JobgraphError, createResolver, instanceGeneration, resolve } = api;

async function example(name) {
  const url = (ext) => new URL(`../../examples/templates/${name}.${ext}`, import.meta.url);
  const template = JSON.parse(await readFile(url("json"), "utf8"));
  template.template ??= await readFile(url("js"), "utf8");
  return template;
}

const filter = await example("severity-filter-v2");
const enrich = await example("tag-enrich");
const templates = [filter, enrich];
const LEVELS = ["debug", "info", "warn", "error"];

/** 50 operations, each with inputs of its own, chained: source -> op0 -> … -> op49 -> sink. */
function fiftyOperations() {
  const vertices = [{ type: "logs-iceberg-table-source", name: "source", table: "logs" }];
  const edges = [];
  let previous = "source";
  for (let i = 0; i < 50; i++) {
    const name = `op${i}`;
    vertices.push(i % 5 === 4
      ? { type: "template-operation", name, templateId: "tag-enrich", templateInputs: { tags: { step: String(i) } } }
      : { type: "template-operation", name, templateId: "severity-filter", templateVersion: 2, templateInputs: { minLevel: LEVELS[i % 4], excludeServices: [`svc-${i}`] } });
    edges.push(`${previous} -> ${name}`);
    previous = name;
  }
  vertices.push({ type: "logs-sync-sink", name: "sink" });
  edges.push(`${previous} -> sink`);
  return { vertices, edges };
}

const operation = (job, name) => job.vertices.find((v) => v.name === name);
const delta = (before, after) => ({ hits: after.hits - before.hits, misses: after.misses - before.misses });

test("editing one operation of 50 re-runs one script; the result is a fresh resolution's", async () => {
  const resolver = createResolver();
  assert.deepEqual(resolver.stats(), { entries: 0, bytes: 0, hits: 0, misses: 0 });
  const job = fiftyOperations();
  const first = await resolver.resolve(job, { templates, provenance: true });
  const afterFirst = resolver.stats();
  assert.deepEqual(delta({ hits: 0, misses: 0 }, afterFirst), { hits: 0, misses: 50 });
  assert.equal(afterFirst.entries, 50);
  assert.ok(afterFirst.bytes > 0);
  assert.deepEqual(first, await resolve(job, { templates, provenance: true }));

  // The same job again: every execution comes from the cache.
  const again = await resolver.resolve(job, { templates, provenance: true });
  assert.deepEqual(again, first);
  const afterAgain = resolver.stats();
  assert.deepEqual(delta(afterFirst, afterAgain), { hits: 50, misses: 0 });

  // Edit one operation's inputs: exactly one miss more, 49 hits.
  const edited = structuredClone(job);
  operation(edited, "op17").templateInputs.excludeServices.push("checkout");
  const second = await resolver.resolve(edited, { templates, provenance: true });
  const afterEdit = resolver.stats();
  assert.deepEqual(delta(afterAgain, afterEdit), { hits: 49, misses: 1 });
  assert.equal(afterEdit.entries, 51);
  assert.deepEqual(second, await resolve(edited, { templates, provenance: true }));
  assert.match(second.output.vertices.find((v) => v.name === "op17.filter").query.query, /NOT service:"checkout"/);
  assert.notDeepEqual(second.output, first.output);

  // Inputs are compared after defaults: spelling out a default is the same execution.
  const spelled = structuredClone(edited);
  operation(spelled, "op4").templateInputs = { tags: { step: "4" }, removeTags: [], sampleSize: 20 };
  await resolver.resolve(spelled, { templates });
  assert.deepEqual(delta(afterEdit, resolver.stats()), { hits: 50, misses: 0 });
});

test("draft mode, user and limits are part of the key", async () => {
  const resolver = createResolver();
  const job = fiftyOperations();
  await resolver.resolve(job, { templates });
  let before = resolver.stats();
  const draft = await resolver.resolve(job, { templates, draft: true });
  assert.deepEqual(delta(before, resolver.stats()), { hits: 0, misses: 50 });
  assert.deepEqual(draft, await resolve(job, { templates, draft: true }));
  assert.ok(draft.output.vertices.some((v) => v.name === "op4.preview"), "draft-only vertices are there");

  before = resolver.stats();
  const ada = await resolver.resolve(job, { templates, user: "ada" });
  // Only tag-enrich reads the user, but the key does not know what a script reads.
  assert.deepEqual(delta(before, resolver.stats()), { hits: 0, misses: 50 });
  assert.deepEqual(operation(ada.output, "op4.tag").transforms.at(-1).values, ["ada"]);

  before = resolver.stats();
  await resolver.resolve(job, { templates, limits: { timeoutMs: 500 } });
  assert.deepEqual(delta(before, resolver.stats()), { hits: 0, misses: 50 });
  before = resolver.stats();
  await resolver.resolve(job, { templates, user: "ada" });
  assert.deepEqual(delta(before, resolver.stats()), { hits: 50, misses: 0 });
});

test("clear() empties the cache and resets the counters", async () => {
  const resolver = createResolver();
  const job = fiftyOperations();
  await resolver.resolve(job, { templates });
  assert.equal(resolver.stats().entries, 50);
  resolver.clear();
  assert.deepEqual(resolver.stats(), { entries: 0, bytes: 0, hits: 0, misses: 0 });
  await resolver.resolve(job, { templates });
  assert.deepEqual(resolver.stats().misses, 50);
  assert.deepEqual(resolver.stats().hits, 0);
});

test("scripts that read the clock or Math.random always run", async () => {
  const leaf = (id, expression) => ({
    id,
    version: 1,
    name: id,
    template: `({vertices: [{type: 'logs-sync-sink', name: 'sink', seed: String(${expression})}], edges: []})`,
  });
  const clockTemplates = [
    leaf("random", "Math.random()"),
    leaf("now", "Date.now()"),
    leaf("date", "new Date().getTime()"),
    leaf("fixed", "42"),
  ];
  const job = {
    vertices: clockTemplates.map((t) => ({ type: "template-operation", name: t.id, templateId: t.id })),
    edges: [],
  };
  const resolver = createResolver();
  const seeds = [];
  for (let round = 0; round < 3; round++) {
    const { output } = await resolver.resolve(job, { templates: clockTemplates });
    seeds.push(output.vertices.find((v) => v.name === "random.sink").seed);
  }
  const stats = resolver.stats();
  // Round 1: 4 misses; rounds 2 and 3: the three clock/random scripts run again, "fixed" hits.
  assert.deepEqual({ hits: stats.hits, misses: stats.misses, entries: stats.entries }, { hits: 2, misses: 10, entries: 1 });
  assert.equal(new Set(seeds).size, 3, "Math.random gave a new value each time");
});

test("errors are JobgraphErrors, are not kept, and the resolver carries on", async () => {
  const resolver = createResolver();
  const job = fiftyOperations();
  await resolver.resolve(job, { templates });
  const broken = structuredClone(job);
  operation(broken, "op3").templateInputs.minLevel = "fatal";
  const before = resolver.stats();
  for (let attempt = 0; attempt < 2; attempt++) {
    await assert.rejects(resolver.resolve(broken, { templates }), (e) => {
      assert.ok(e instanceof JobgraphError);
      assert.equal(e.code, "INPUT_VALIDATION_FAILED");
      assert.deepEqual(e.operationPath, ["op3"]);
      assert.equal(e.pointer, "/minLevel");
      return true;
    });
  }
  // Operations run in graph order: op0-op2 come from the cache each time, and op3's inputs
  // are refused before its script is looked up or run.
  assert.deepEqual(delta(before, resolver.stats()), { hits: 6, misses: 0 });

  const throwing = { id: "thrower", version: 1, name: "T", template: "throw new TypeError('no ' + what)" };
  const failing = { vertices: [{ type: "template-operation", name: "t", templateId: "thrower", templateInputs: { what: "luck" } }] };
  for (let attempt = 0; attempt < 2; attempt++) {
    await assert.rejects(resolver.resolve(failing, { templates: [throwing] }), (e) => {
      assert.ok(e instanceof JobgraphError);
      assert.equal(e.code, "SCRIPT_FAILED");
      assert.match(e.message, /no luck/);
      assert.equal(e.templateId, "thrower");
      assert.deepEqual(e.operationPath, ["t"]);
      return true;
    });
  }
  const after = resolver.stats();
  assert.deepEqual(delta(before, after), { hits: 6, misses: 2 }, "a failure runs every time");
  assert.equal(after.entries, before.entries);

  await assert.rejects(resolver.resolve(failing, {}), { code: "TEMPLATE_NOT_FOUND" });
  await assert.rejects(resolver.resolve(failing, { fetchTemplate: async () => { throw new Error("HTTP 503"); } }), { code: "SOURCE_FAILED" });
  // Lazily fetched templates are cached the same way.
  const fetched = await resolver.resolve(job, { fetchTemplate: async (id) => templates.find((t) => t.id === id) ?? null });
  assert.deepEqual(fetched, await resolve(job, { templates }));
  assert.deepEqual(delta(after, resolver.stats()), { hits: 50, misses: 0 });
});

test("the cache is bounded by entries and by bytes", async () => {
  const job = fiftyOperations();
  const few = createResolver({ maxEntries: 10 });
  await few.resolve(job, { templates });
  assert.equal(few.stats().entries, 10);
  const small = createResolver({ maxBytes: 2000 });
  await small.resolve(job, { templates });
  const stats = small.stats();
  assert.ok(stats.bytes <= 2000 && stats.entries > 0 && stats.entries < 50, JSON.stringify(stats));
  const none = createResolver({ maxEntries: 0 });
  await none.resolve(job, { templates });
  await none.resolve(job, { templates });
  assert.deepEqual(none.stats(), { entries: 0, bytes: 0, hits: 0, misses: 100 });

  for (const bad of [{ maxEntries: -1 }, { maxEntries: 1.5 }, { maxBytes: "1MB" }, { maxBytes: 2 ** 40 }]) {
    assert.throws(() => createResolver(bad), (e) => e instanceof JobgraphError && e.code === "INVALID_ARGUMENT" && /createResolver/.test(e.message));
  }
});

test("after a WASM_TRAP the resolver carries on in the fresh instance, with an empty cache", async () => {
  const resolver = createResolver();
  const job = fiftyOperations();
  await resolver.resolve(job, { templates });
  assert.equal(resolver.stats().entries, 50);
  // A real trap: limits above the module's 512 MiB memory cap let this allocation through the
  // engine's size check, and growing the memory fails.
  const huge = { id: "huge", version: 1, name: "huge", template: "'x'.repeat(2 ** 29 + 2 ** 28).length" };
  const trapping = { vertices: [{ type: "template-operation", name: "h", templateId: "huge" }] };
  const pastTheCap = { templates: [huge], limits: { maxMemoryBytes: 4 * 2 ** 30 } };
  await assert.rejects(resolver.resolve(trapping, pastTheCap), (e) => {
    assert.ok(e instanceof JobgraphError);
    assert.equal(e.code, "WASM_TRAP");
    return true;
  });
  // So does the plain resolve(): the trap is thrown by the call, not lost in a microtask.
  await assert.rejects(resolve(trapping, pastTheCap), { code: "WASM_TRAP" });
  // No explicit reload(): the next call runs on the instance that took over.
  const { output } = await resolver.resolve(job, { templates });
  assert.deepEqual(output, (await resolve(job, { templates })).output);
  assert.deepEqual(resolver.stats(), { entries: 50, bytes: resolver.stats().bytes, hits: 0, misses: 50 });
  await resolver.resolve(job, { templates });
  assert.equal(resolver.stats().hits, 50);
});

test("a trap after a template fetch rejects the call with WASM_TRAP, never an uncaught exception", { timeout: 30_000 }, async () => {
  const huge = { id: "huge", version: 1, name: "huge", template: "'x'.repeat(2 ** 29 + 2 ** 28).length" };
  const trapping = { vertices: [{ type: "template-operation", name: "h", templateId: "huge" }] };
  const uncaught = [];
  const record = (error) => uncaught.push(error);
  process.on("uncaughtException", record);
  process.on("unhandledRejection", record);
  try {
    const generation = instanceGeneration();
    const options = { fetchTemplate: async () => huge, limits: { maxMemoryBytes: 4 * 2 ** 30 } };
    // The script runs after the fetch's promise settled: in a continuation, not in the call.
    await assert.rejects(resolve(trapping, options), { code: "WASM_TRAP" });
    await assert.rejects(createResolver().resolve(trapping, options), { code: "WASM_TRAP" });
    assert.equal(instanceGeneration(), generation + 2);
    // The next lazy resolution runs on the fresh instance.
    const fetched = [];
    const fetchTemplate = async (id) => {
      fetched.push(id);
      return templates.find((t) => t.id === id) ?? null;
    };
    const { output } = await resolve(fiftyOperations(), { fetchTemplate });
    assert.deepEqual(output, (await resolve(fiftyOperations(), { templates })).output);
    assert.ok(fetched.length > 0);
    await new Promise((wake) => setTimeout(wake, 10));
    assert.deepEqual(uncaught, []);
  } finally {
    process.off("uncaughtException", record);
    process.off("unhandledRejection", record);
  }
});
