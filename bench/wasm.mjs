// Benchmarks the npm package in Node (and, with --chromium, in headless Chromium):
// .wasm size raw / gzip / brotli, instantiate time, time per template operation.
// Usage: node bench/wasm.mjs [--chromium]
import { readFile } from "node:fs/promises";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const wasmUrl = new URL("../pkg/wasm/jobgraph_wasm_bg.wasm", import.meta.url);

// The same workload as `operation/warm` of the native benchmark (core/benches/resolve.rs).
async function workload() {
  const json = JSON.parse(await readFile(new URL("../examples/templates/severity-filter-v2.json", import.meta.url), "utf8"));
  json.template = await readFile(new URL("../examples/templates/severity-filter-v2.js", import.meta.url), "utf8");
  const vertices = Array.from({ length: 50 }, (_, i) => ({
    type: "template-operation",
    name: `op${i}`,
    templateId: "severity-filter",
    templateVersion: 2,
    templateInputs: { minLevel: "info", excludeServices: ["a", "b"] },
  }));
  return { templates: [json], job: { vertices, edges: [] } };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function perOperation(api, { templates, job }, rounds = 15) {
  await api.resolve(job, { templates }); // warm-up: JIT tiers
  await api.resolve(job, { templates });
  const times = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    await api.resolve(job, { templates });
    times.push((performance.now() - t0) / job.vertices.length);
  }
  return median(times);
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

const api = await import("../pkg/index.js");
const data = await workload();
const node = await perOperation(api, data);
const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
console.log(`wasm raw     ${kb(bytes.length)} (${bytes.length} bytes)`);
console.log(`wasm gzip -9 ${kb(gzip)} (${gzip} bytes)`);
console.log(`wasm brotli  ${kb(brotli)} (${brotli} bytes)`);
console.log(`instantiate (compile + instantiate, Node, median of 5) ${median(instantiate).toFixed(1)} ms`);
console.log(`per template operation, Node (median of 15 × 50 ops)   ${(node * 1000).toFixed(0)} µs`);

if (process.argv.includes("--chromium")) {
  const { chromium } = await import("playwright-core");
  const { CHROMIUM, startServer } = await import("../tests/js/static-server.mjs");
  const server = await startServer(root);
  const browser = await chromium.launch(CHROMIUM);
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}/tests/js/blank.html`);
    const result = await page.evaluate(async (data) => {
      const t0 = performance.now();
      const api = await import("/pkg/index.js");
      const load = performance.now() - t0;
      await api.resolve(data.job, { templates: data.templates });
      await api.resolve(data.job, { templates: data.templates });
      const times = [];
      for (let i = 0; i < 15; i++) {
        const s = performance.now();
        await api.resolve(data.job, { templates: data.templates });
        times.push((performance.now() - s) / data.job.vertices.length);
      }
      times.sort((a, b) => a - b);
      return { load, perOp: times[7] };
    }, data);
    console.log(`load (fetch + compile + instantiate, Chromium)         ${result.load.toFixed(1)} ms`);
    console.log(`per template operation, Chromium (median of 15 × 50)    ${(result.perOp * 1000).toFixed(0)} µs`);
  } finally {
    await browser.close();
    await server.close();
  }
}
