// The worker-backed resolver in Node (worker_threads), and recovery from a wasm trap.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as api from "../../pkg/index.node.js";
import { createWorkerResolver } from "../../pkg/worker.node.js";

const filter = {
  id: "filter",
  version: 1,
  name: "Filter",
  inputSchema: { type: "object", properties: { q: { type: "string", default: "*" } } },
  template: "({vertices: [{type: 'logs-filter', name: 'f', query: {type: 'simple-query', query: q}}], edges: []})",
  inputs: { input: "f:input" },
  outputs: { output: "f:output" },
};
const job = {
  vertices: [
    { type: "template-operation", name: "a", templateId: "filter", templateInputs: { q: "x" } },
    { type: "template-operation", name: "b", templateId: "filter" },
    { type: "logs-sync-sink", name: "out" },
  ],
  edges: ["a -> b", "b -> out"],
};

test("worker resolver gives the same result as the direct API, with lazy fetching", async (t) => {
  const resolver = await createWorkerResolver({ timeoutMs: 3000 });
  t.after(() => resolver.terminate());
  const direct = await api.resolve(job, { templates: [filter], provenance: true });
  assert.deepEqual(await resolver.resolve(job, { templates: [filter], provenance: true }), direct);
  const asked = [];
  const lazy = await resolver.resolve(job, {
    provenance: true,
    fetchTemplate: async (id, version) => {
      asked.push([id, version]);
      return id === "filter" ? filter : null;
    },
  });
  assert.deepEqual(lazy, direct);
  assert.deepEqual(asked, [["filter", undefined]], "fetched once for two operations");
  await assert.rejects(resolver.resolve(job, { fetchTemplate: async () => null }), (e) => {
    assert.equal(e.code, "TEMPLATE_NOT_FOUND");
    assert.ok(e instanceof api.JobgraphError);
    return true;
  });
});

test("a script that never ends is stopped by terminating the worker; the next call works", async (t) => {
  const resolver = await createWorkerResolver({ timeoutMs: 1000 });
  t.after(() => resolver.terminate());
  const started = Date.now();
  await assert.rejects(
    resolver.testTemplate({ name: "spin", template: "while (true) {}" }, {}, { limits: { timeoutMs: 600000, loopIterations: 1e15 } }),
    (e) => {
      assert.equal(e.code, "TIMEOUT");
      assert.match(e.message, /^JavaScript execution failed: time limit of 1000 ms exceeded/);
      return true;
    },
  );
  assert.ok(Date.now() - started < 1000 * 1.5 + 500, `took ${Date.now() - started} ms`);
  const graph = await resolver.testTemplate(filter, { values: { q: "ok" } });
  assert.equal(graph.vertices[0].query.query, "ok");
});

// A real trap: limits above the module's own 512 MiB memory cap let an allocation through the
// engine's size check, and growing the memory fails (the instance aborts: `unreachable`).
const trapping = { name: "big", template: "'x'.repeat(2 ** 29 + 2 ** 28).length" };
const pastTheCap = { limits: { maxMemoryBytes: 4 * 2 ** 30 } };

test("a trap: the very next call, synchronous included, runs on a healthy instance", async () => {
  const generation = api.instanceGeneration();
  for (let i = 0; i < 3; i++) {
    assert.throws(() => api.testTemplate(trapping, {}, pastTheCap), (e) => {
      assert.equal(e.code, "WASM_TRAP");
      assert.match(e.message, /^JavaScript execution failed: the WebAssembly instance trapped \(unreachable\); the next call runs on a fresh instance/);
      return true;
    });
    // No reload by hand, nothing awaited: the standby (or a synchronously made instance) serves.
    assert.deepEqual(api.parseEdge("a -> b:c"), { from: { vertex: "a" }, to: { vertex: "b", port: "c" } });
    assert.equal(api.testTemplate(filter, { values: { q: "ok" } }).vertices[0].query.query, "ok");
  }
  assert.equal(api.instanceGeneration(), generation + 3);
  const out = await api.resolve(job, { templates: [filter] });
  assert.equal(out.output.vertices.length, 3);
  // A createResolver() carries on too, with an empty cache on the new instance.
  const cached = api.createResolver();
  await cached.resolve(job, { templates: [filter] });
  assert.throws(() => api.testTemplate(trapping, {}, pastTheCap), (e) => e.code === "WASM_TRAP");
  assert.deepEqual(cached.stats(), { entries: 0, bytes: 0, hits: 0, misses: 0 });
  assert.equal((await cached.resolve(job, { templates: [filter] })).output.vertices.length, 3);
});

test("a source of 100,000 `!` or 50,000 `- ` fails with the nesting limit, as natively", () => {
  for (const template of ["!".repeat(100_000) + "1", "- ".repeat(50_000) + "1"]) {
    assert.throws(() => api.testTemplate({ name: "chain", template }), (e) => {
      assert.equal(e.code, "SCRIPT_FAILED");
      assert.equal(e.limit?.kind, "nesting");
      assert.match(e.message, /^JavaScript execution failed: nesting limit of 64 levels exceeded/);
      return true;
    });
  }
});

test("the worker resolver replaces its worker after a trap; the calls queued behind it work", async (t) => {
  const resolver = await createWorkerResolver({ timeoutMs: 1500 });
  t.after(() => resolver.terminate());
  const calls = [
    resolver.testTemplate(trapping, {}, pastTheCap),
    resolver.testTemplate(filter, { values: { q: "after" } }),
    resolver.parseEdge("a->b"),
    resolver.resolve(job, { templates: [filter] }),
  ];
  const [trap, ...rest] = await Promise.allSettled(calls);
  assert.equal(trap.status, "rejected");
  assert.equal(trap.reason.code, "WASM_TRAP");
  assert.deepEqual(rest.map((r) => r.status), ["fulfilled", "fulfilled", "fulfilled"]);
  assert.equal(rest[0].value.vertices[0].query.query, "after");
  assert.equal(resolver.replacements(), 1);
  // A time-out, then calls queued behind it.
  const spin = resolver.testTemplate({ name: "spin", template: "while (true) {}" }, {}, { limits: { timeoutMs: 600000, loopIterations: 1e15 } });
  const behind = [resolver.parseEdge("x->y"), resolver.testTemplate(filter, { values: { q: "later" } })];
  await assert.rejects(spin, (e) => e.code === "TIMEOUT");
  const [edge, graph] = await Promise.all(behind);
  assert.deepEqual(edge, { from: { vertex: "x" }, to: { vertex: "y" } });
  assert.equal(graph.vertices[0].query.query, "later");
  assert.equal(resolver.replacements(), 2);
});
