// The worker-backed resolver in Node (worker_threads), and recovery from a wasm trap.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as api from "../../pkg/index.js";
import { createWorkerResolver } from "../../pkg/worker.js";

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

test("a trapping script (V8's call stack exhausted) is reported and a fresh instance takes over", async () => {
  // A huge single allocation no longer traps: the engine checks requested sizes first.
  const big = await Promise.resolve().then(() => api.testTemplate({ name: "big", template: "'x'.repeat(2 ** 30)" })).catch((e) => e);
  assert.equal(big.limit?.kind, "memory");
  await assert.rejects(
    Promise.resolve().then(() => api.testTemplate({ name: "deep", template: "let a = []; for (let i = 0; i < 100000; i++) a = [a]; String(a)" })),
    (e) => {
      assert.equal(e.code, "WASM_TRAP");
      assert.match(e.message, /^JavaScript execution failed: the WebAssembly instance trapped/);
      return true;
    },
  );
  await api.reload();
  assert.deepEqual(api.parseEdge("a -> b:c"), { from: { vertex: "a" }, to: { vertex: "b", port: "c" } });
  const out = await api.resolve(job, { templates: [filter] });
  assert.equal(out.output.vertices.length, 3);
});
