// Benchmarks the npm package in Node (and, with --chromium, in headless Chromium):
// .wasm size raw / gzip / brotli, instantiate time, time per template operation, and the
// incremental figures of `createResolver` (re-resolving a 50-operation job after one
// operation's inputs changed, and with nothing changed).
// Usage: node bench/wasm.mjs [--chromium]
import { readFile } from "node:fs/promises";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const wasmUrl = new URL("../pkg/wasm/jobgraph_wasm_bg.wasm", import.meta.url);

// The workload of `operation/warm` of the native benchmark (core/benches/resolve.rs): 50
// severity-filter operations, here each with inputs of its own (`excludeServices`), so that
// no two executions are the same one. `resolve()` keeps nothing between calls, and the
// resolver of `incremental` starts empty: every execution in `perOperation` really runs.
async function workload() {
  const json = JSON.parse(await readFile(new URL("../examples/templates/severity-filter-v2.json", import.meta.url), "utf8"));
  json.template = await readFile(new URL("../examples/templates/severity-filter-v2.js", import.meta.url), "utf8");
  const vertices = Array.from({ length: 50 }, (_, i) => ({
    type: "template-operation",
    name: `op${i}`,
    templateId: "severity-filter",
    templateVersion: 2,
    templateInputs: { minLevel: "info", excludeServices: ["a", `svc-${i}`] },
  }));
  return { templates: [json], job: { vertices, edges: [] } };
}

// The workload with a template without inputSchema: what the inputSchema's compilation (once
// per template and resolution) adds to a re-resolution.
function withoutSchema({ templates, job }) {
  return { templates: templates.map(({ inputSchema, ...t }) => t), job };
}

// Shared with the Chromium page (passed as source text): no closures over this module.
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

// Wall-clock time per operation and, in Node, the process's CPU time per operation (user +
// system: on a machine shared with other work, wall time also counts the time others ran).
async function perOperation(api, { templates, job }, rounds = 15) {
  await api.resolve(job, { templates }); // warm-up: JIT tiers
  await api.resolve(job, { templates });
  const cpuUsage = globalThis.process?.cpuUsage;
  const times = [];
  const cpu = [];
  for (let i = 0; i < rounds; i++) {
    const c0 = cpuUsage?.();
    const t0 = performance.now();
    await api.resolve(job, { templates });
    times.push((performance.now() - t0) / job.vertices.length);
    if (c0) {
      const c = cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000 / job.vertices.length);
    }
  }
  return { wall: median(times), cpu: cpu.length ? median(cpu) : null };
}

/**
 * Re-resolution of the whole job through `createResolver`: after editing one operation's
 * inputs (a new value every round, so exactly one script runs), and with nothing changed
 * (no script runs). Checks the cache counters say so.
 */
async function incremental(api, { templates, job }, rounds = 31) {
  const resolver = api.createResolver();
  const edited = structuredClone(job);
  await resolver.resolve(edited, { templates }); // fills the cache
  for (let i = 0; i < 5; i++) await resolver.resolve(edited, { templates }); // warm-up
  const edit = [];
  const same = [];
  let misses = resolver.stats().misses;
  for (let round = 0; round < rounds; round++) {
    const op = edited.vertices[(round * 7) % edited.vertices.length];
    op.templateInputs = { ...op.templateInputs, excludeServices: ["a", `edit-${round}`] };
    let t0 = performance.now();
    await resolver.resolve(edited, { templates });
    edit.push(performance.now() - t0);
    t0 = performance.now();
    await resolver.resolve(edited, { templates });
    same.push(performance.now() - t0);
    const now = resolver.stats().misses;
    if (now - misses !== 1) throw new Error(`round ${round}: ${now - misses} scripts ran, expected 1`);
    misses = now;
  }
  return { edit: median(edit), same: median(same) };
}

const bytes = await readFile(wasmUrl);
const gzip = gzipSync(bytes, { level: 9 }).length;
const brotli = brotliCompressSync(bytes, {
  params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24 },
}).length;
const instantiate = [];
for (let i = 0; i < 5; i++) {
  const glue = await import(`../pkg/wasm/jobgraph_wasm.js?bench=${i}`);
  const t0 = performance.now();
  await glue.default({ module_or_path: bytes });
  instantiate.push(performance.now() - t0);
}

const api = await import("../pkg/index.node.js");
const data = await workload();
const node = await perOperation(api, data);
const nodeIncremental = await incremental(api, data);
const nodeNoSchema = await incremental(api, withoutSchema(data));
const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
console.log(`wasm raw     ${kb(bytes.length)} (${bytes.length} bytes)`);
console.log(`wasm gzip -9 ${kb(gzip)} (${gzip} bytes)`);
console.log(`wasm brotli  ${kb(brotli)} (${brotli} bytes)`);
console.log(`instantiate (compile + instantiate, Node, median of 5) ${median(instantiate).toFixed(1)} ms`);
console.log(`per template operation, Node (median of 15 × 50 ops)   ${(node.wall * 1000).toFixed(0)} µs (CPU time ${(node.cpu * 1000).toFixed(0)} µs)`);
console.log(`re-resolution, 1 of 50 ops edited, Node (median of 31)  ${nodeIncremental.edit.toFixed(2)} ms`);
console.log(`re-resolution, nothing changed, Node (median of 31)     ${nodeIncremental.same.toFixed(2)} ms`);
console.log(`  the same without the template's inputSchema: ${nodeNoSchema.edit.toFixed(2)} ms edited, ${nodeNoSchema.same.toFixed(2)} ms unchanged`);

if (process.argv.includes("--chromium")) {
  const { chromium } = await import("playwright-core");
  const { CHROMIUM, startServer } = await import("../tests/js/static-server.mjs");
  const server = await startServer(root);
  const browser = await chromium.launch(CHROMIUM);
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}/tests/js/blank.html`);
    // The same functions as in Node, as source text.
    const code = `${median}\n${perOperation}\n${incremental}`;
    const result = await page.evaluate(async ({ data, code, withoutSchema }) => {
      const t0 = performance.now();
      const api = await import("/pkg/index.js");
      const load = performance.now() - t0;
      const { perOperation, incremental } = new Function(`${code}\nreturn { perOperation, incremental };`)();
      return { load, perOp: await perOperation(api, data), incremental: await incremental(api, data), noSchema: await incremental(api, withoutSchema) };
    }, { data, code, withoutSchema: withoutSchema(data) });
    console.log(`load (fetch + compile + instantiate, Chromium)         ${result.load.toFixed(1)} ms`);
    console.log(`per template operation, Chromium (median of 15 × 50)    ${(result.perOp.wall * 1000).toFixed(0)} µs`);
    console.log(`re-resolution, 1 of 50 ops edited, Chromium (median of 31) ${result.incremental.edit.toFixed(2)} ms`);
    console.log(`re-resolution, nothing changed, Chromium (median of 31) ${result.incremental.same.toFixed(2)} ms`);
    console.log(`  the same without the template's inputSchema: ${result.noSchema.edit.toFixed(2)} ms edited, ${result.noSchema.same.toFixed(2)} ms unchanged`);
  } finally {
    await browser.close();
    await server.close();
  }
}
