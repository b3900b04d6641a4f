// The package's API in Node: lazy fetching concurrency, error objects, validation, edges.
import { test } from "node:test";
import assert from "node:assert/strict";
import { JobgraphError, formatEdge, parseEdge, resolve, testTemplate, validateJobGraph } from "../../pkg/index.node.js";

const leaf = (id) => ({
  id,
  version: 1,
  name: id,
  template: `({vertices: [{type: 'logs-sync-sink', name: '${id}-sink'}], edges: []})`,
  inputs: { input: `${id}-sink:input` },
});

test("templates of one level are requested together, each once per call", async () => {
  const templates = { a: leaf("a"), b: leaf("b") };
  let inFlight = 0;
  let most = 0;
  const asked = [];
  const fetchTemplate = async (id, version) => {
    asked.push(`${id}@${version ?? "latest"}`);
    inFlight += 1;
    most = Math.max(most, inFlight);
    await new Promise((r) => setTimeout(r, 20));
    inFlight -= 1;
    return templates[id] ?? null;
  };
  const job = {
    vertices: [
      { type: "template-operation", name: "x", templateId: "a" },
      { type: "template-operation", name: "y", templateId: "b" },
      { type: "template-operation", name: "z", templateId: "a" },
    ],
    edges: [],
  };
  const { output } = await resolve(job, { fetchTemplate });
  assert.deepEqual(output.vertices.map((v) => v.name), ["x.a-sink", "y.b-sink", "z.a-sink"]);
  assert.deepEqual(asked, ["a@latest", "b@latest"]);
  assert.equal(most, 2, "both fetches were in flight at once");
});

test("a failing fetch is a source error; null is not found", async () => {
  const job = { vertices: [{ type: "template-operation", name: "x", templateId: "a", templateVersion: 3 }] };
  await assert.rejects(resolve(job, { fetchTemplate: async () => { throw new Error("HTTP 503"); } }), (e) => {
    assert.ok(e instanceof JobgraphError);
    assert.equal(e.code, "SOURCE_FAILED");
    assert.match(e.message, /^Template source failed: fetching a@3: HTTP 503 \(operation x\)/);
    return true;
  });
  await assert.rejects(resolve(job, { fetchTemplate: async () => null }), { code: "TEMPLATE_NOT_FOUND", templateId: "a", templateVersion: 3 });
});

test("errors carry their location", () => {
  const template = {
    id: "t",
    version: 2,
    name: "T",
    inputSchema: { type: "object", properties: { n: { type: "integer", maximum: 5 } } },
    template: "const x = n;\nif (x > 3) {\n  throw new RangeError('too many');\n}\n({vertices: [], edges: []})",
  };
  assert.throws(() => testTemplate(template, { values: { n: 4 } }), (e) => {
    assert.ok(e instanceof JobgraphError && e instanceof Error);
    assert.equal(e.name, "JobgraphError");
    assert.equal(e.code, "SCRIPT_FAILED");
    assert.equal(e.prefix, "JavaScript execution failed");
    assert.equal(e.line, 3);
    assert.equal(e.templateId, "t");
    assert.equal(e.templateVersion, 2);
    assert.match(e.message, /RangeError: too many at line 3/);
    return true;
  });
  assert.throws(() => testTemplate(template, { values: { n: 9 } }), (e) => {
    assert.equal(e.code, "INPUT_VALIDATION_FAILED");
    assert.equal(e.pointer, "/n");
    assert.equal(e.problems.length, 1);
    return true;
  });
  assert.throws(() => testTemplate({ name: "spin", template: "for (;;) {}" }, {}, { limits: { loopIterations: 1000 } }), (e) => {
    assert.deepEqual(e.limit, { kind: "loop", value: 1000 });
    return true;
  });
});

test("validation, edges", () => {
  assert.deepEqual(
    validateJobGraph({ vertices: [{ type: "logs-filter", name: "f" }], edges: ["f -> g"] }).map((p) => p.pointer),
    ["/vertices/0/query", "/edges/0"],
  );
  assert.deepEqual(validateJobGraph({ vertices: [], edges: [] }), []);
  assert.equal(formatEdge({ from: { vertex: "a", port: "out" }, to: { vertex: "b" } }), "a:out -> b");
  assert.throws(() => formatEdge({ from: { vertex: "a b" }, to: { vertex: "c" } }), { code: "INVALID_ARGUMENT" });
  assert.throws(() => parseEdge("a -> b -> c"), (e) => e.code === "MALFORMED_EDGE" && e.message.includes('"a -> b -> c"'));
});

test("source nesting: within the limit it runs, past it the script is refused before parsing", () => {
  // Ordinary nesting runs. (Deep nesting close to the limit can exhaust V8's own stack in the
  // -Oz build on the first, baseline-compiled call: that ends in WASM_TRAP and a fresh instance,
  // tested in worker.node.test.mjs; see docs/sandbox.md.)
  const fits = { name: "fits", template: `${"[".repeat(16)}1${"]".repeat(16)}; ({vertices: [], edges: []})` };
  assert.deepEqual(testTemplate(fits), { vertices: [], edges: [] });
  const deep = { name: "deep", template: `${"(".repeat(20000)}1${")".repeat(20000)}` };
  assert.throws(() => testTemplate(deep), (e) => {
    assert.equal(e.code, "SCRIPT_FAILED");
    assert.deepEqual(e.limit, { kind: "nesting", value: 64 });
    assert.equal(e.column, 65);
    return true;
  });
});

test("a whole resolution stops at limits.resolutionTimeoutMs, naming the running operation", async () => {
  const slow = {
    id: "slow",
    version: 1,
    name: "slow",
    template: "let t = Date.now(); while (Date.now() - t < 150) {} ({vertices: [{type: 'x', name: 'v'}], edges: []})",
  };
  const job = {
    vertices: Array.from({ length: 10 }, (_, i) => ({ type: "template-operation", name: `op${i}`, templateId: "slow" })),
    edges: [],
  };
  const started = Date.now();
  await assert.rejects(resolve(job, { templates: [slow], limits: { resolutionTimeoutMs: 400 } }), (e) => {
    assert.ok(e instanceof JobgraphError);
    assert.equal(e.code, "SCRIPT_FAILED");
    assert.match(e.message, /^JavaScript execution failed: resolution time limit of 400 ms exceeded .*--resolution-timeout-ms.*\(template slow@1, operation op[12]\)$/);
    assert.deepEqual(e.limit, { kind: "resolutionTime", value: 400 });
    return true;
  });
  assert.ok(Date.now() - started < 1500, "not every script ran");
  // Within the limit, the same job resolves.
  const { output } = await resolve({ vertices: job.vertices.slice(0, 2), edges: [] }, { templates: [slow], limits: { resolutionTimeoutMs: 5000 } });
  assert.equal(output.vertices.length, 2);
});

// One loader for both modules (pkg/internal/runtime.js): what `init` refuses, and why, in the
// same words for the main module (`jobgraph/slim`'s `init`) and the grok one. A failed `init`
// keeps the module in service.
test("init: a missing or wrong module is WASM_LOAD_FAILED saying what was found, for the main and the grok module", async () => {
  const slim = await import("../../pkg/slim.js");
  const grok = await import("../../pkg/grok.node.js");
  const html = new TextEncoder().encode("<!doctype html><html>");
  for (const [name, init] of [["main", slim.init], ["grok", grok.init]]) {
    const refused = async (source, pattern) =>
      assert.rejects(init(source), (e) => {
        assert.ok(e instanceof JobgraphError, `${name}: ${e}`);
        assert.equal(e.code, "WASM_LOAD_FAILED", name);
        assert.equal(e.prefix, "Could not load the WebAssembly module", name);
        assert.match(e.message, pattern, name);
        return true;
      });
    await refused(html, /^Could not load the WebAssembly module: the bytes given to init\(\) is not a WebAssembly module \(it starts with "<!doctype html><"\): it looks like an HTML page/);
    await refused(new Response("missing", { status: 404 }), /^Could not load the WebAssembly module: the Response given to init\(\) answered HTTP 404: the file is not there/);
    await refused(Promise.resolve(null), /init\(\) takes a URL, a Response \(or a promise of one\), an ArrayBuffer or typed array, or a WebAssembly.Module; got null$/);
    await refused(Promise.reject(new Error("disk gone")), /: reading it failed \(disk gone\)$/);
  }
  await assert.rejects(slim.init(), (e) => e.code === "WASM_LOAD_FAILED" && e.message.includes("init() needs the module"));
  // Both modules still serve calls.
  assert.deepEqual(parseEdge("a -> b"), { from: { vertex: "a" }, to: { vertex: "b" } });
  assert.equal(grok.parseGrok({ grokParser: { grokParsingRules: "r %{word:w}" }, logSamples: ["x"] }).results[0].match, true);
  assert.equal(grok.JobgraphError, JobgraphError, "one JobgraphError class for every entry");
});
