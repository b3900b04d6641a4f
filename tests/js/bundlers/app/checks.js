// What every bundled app checks in the page, through the package as the bundler emitted it:
// `resolve`, `createResolver`, `testTemplate`, a trap recovered in-process, the worker
// resolver stopping a script that never ends, then answering the next call, and `runJob` of a
// job with a grok parser (the grok module fetched then) in the page and in the worker. The
// outcome goes to `window.__jobgraph` (and the page's text), for the test to read.
const template = {
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
    { type: "template-operation", name: "errors", templateId: "filter", templateInputs: { q: "level:error" } },
    { type: "logs-sync-sink", name: "out" },
  ],
  edges: ["errors -> out"],
};
const trapping = { name: "big", template: "'x'.repeat(2 ** 29 + 2 ** 28).length" };
const grokJob = {
  vertices: [
    { type: "logs-iceberg-table-source", name: "src" },
    { type: "grok-parser", name: "parse", grokParsingRules: ["access %{word:method} %{integer:status}"] },
    { type: "logs-sync-sink", name: "out" },
  ],
  edges: ["src -> parse", "parse -> out"],
};
const lines = [{ id: "e1", message: "GET 200" }];
const pastTheCap = { limits: { maxMemoryBytes: 4 * 2 ** 30 } };

async function attempt(run) {
  try {
    return { value: await run() };
  } catch (error) {
    return { code: error?.code ?? null, message: String(error?.message ?? error) };
  }
}

/** Runs the checks with the package's `api` and `createWorkerResolver`; resolves to the outcome. */
export async function runChecks(api, createWorkerResolver) {
  const out = {};
  const resolved = await api.resolve(job, { templates: [template] });
  out.resolve = { vertices: resolved.output.vertices.map((v) => v.name), edges: resolved.output.edges };
  const cached = api.createResolver();
  await cached.resolve(job, { templates: [template] });
  await cached.resolve(job, { templates: [template] });
  out.createResolver = cached.stats();
  out.testTemplate = api.testTemplate(template, { values: { q: "x" } }).vertices[0].query.query;
  out.invalid = await attempt(() => api.testTemplate(template, { values: { q: 1 } }));
  out.trap = await attempt(() => api.testTemplate(trapping, {}, pastTheCap));
  out.afterTrap = api.parseEdge("a:p -> b");
  const worker = await createWorkerResolver({ timeoutMs: 1500 });
  const started = performance.now();
  out.spin = await attempt(() => worker.testTemplate({ name: "spin", template: "while (true) {}" }, {}, { limits: { timeoutMs: 600000, loopIterations: 1e15 } }));
  out.spinMs = Math.round(performance.now() - started);
  out.workerAfterSpin = await worker.resolve(job, { templates: [template] }).then((r) => r.output.vertices.map((v) => v.name));
  out.workerTrap = await attempt(() => worker.testTemplate(trapping, {}, pastTheCap));
  out.workerAfterTrap = await worker.parseEdge("x -> y");
  out.grok = (await api.runJob(grokJob, lines)).sinks.out[0].attributes;
  out.workerGrok = (await worker.runJob(grokJob, lines)).sinks.out[0].attributes;
  out.replacements = worker.replacements();
  await worker.terminate();
  return out;
}

/** Runs the checks and publishes the outcome (or the failure) on the page. */
export function publish(promise) {
  promise.then(
    (outcome) => {
      window.__jobgraph = { ok: true, outcome };
      document.body.textContent = JSON.stringify(outcome);
    },
    (error) => {
      window.__jobgraph = { ok: false, error: String(error?.stack ?? error) };
      document.body.textContent = `failed: ${error?.message ?? error}`;
    },
  );
}
