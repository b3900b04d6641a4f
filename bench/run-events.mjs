// What one run of the draft preview costs in headless Chromium (issue 21): `runJob` of the
// resolved errors-to-vendor job on 1 000 events (scripts/sample-events.mjs 1000 7) passed as an
// array (read again by every run) and as an EventSet (`loadEvents`, read once), with `keep` 50,
// 10 and 0 and `keepVertices`; the cost of reading the set; the size of the run's record.
// Prints median and min of 40 runs (Chromium rounds `performance.now()` to 0.1 ms).
// Usage: node bench/run-events.mjs   (needs pkg/wasm built and Chromium, as tests/js/ do)
import { readFile, readdir } from "node:fs/promises";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { openPage } from "../tests/js/browser.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
const templates = [];
for (const f of await readdir(`${root}/examples/templates`)) {
  if (!f.endsWith(".json")) continue;
  const t = JSON.parse(await readFile(`${root}/examples/templates/${f}`, "utf8"));
  if (!t.template) t.template = await readFile(`${root}/examples/templates/${f.replace(/json$/, "js")}`, "utf8");
  templates.push(t);
}
const job = JSON.parse(await readFile(`${root}/examples/jobs/errors-to-vendor.json`, "utf8"));
const text = execFileSync(process.execPath, [`${root}/scripts/sample-events.mjs`, "1000", "7"], { encoding: "utf8", maxBuffer: 1 << 24 });
const { page, close } = await openPage(root, { path: "/tests/js/blank.html" });
try {
  const lines = await page.evaluate(async ({ job, templates, text }) => {
    const api = await import("/pkg/index.js");
    const { output } = await api.resolve(job, { templates });
    const graph = output.jobGraph ?? output;
    const events = text.split("\n").filter(Boolean).map((l) => JSON.parse(l));
    const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
    const out = [];
    async function time(label, fn, n = 40) {
      for (let i = 0; i < 5; i++) await fn();
      const t = [];
      for (let i = 0; i < n; i++) {
        const s = performance.now();
        await fn();
        t.push(performance.now() - s);
      }
      out.push(`${label}: median ${median(t).toFixed(1)} ms, min ${Math.min(...t).toFixed(1)} ms`);
    }
    await time("runJob, 1 000 events as an array, keep 50", () => api.runJob(graph, events, { keep: 50 }), 20);
    await time("loadEvents(NDJSON text of 1 000 events)", () => api.loadEvents(text).free(), 20);
    const set = api.loadEvents(text);
    await time("runJob on the EventSet, an empty graph", () => api.runJob({ vertices: [], edges: [] }, set, { keep: 50 }));
    for (const keep of [50, 10, 0]) await time(`runJob on the EventSet, keep ${keep}`, () => api.runJob(graph, set, { keep }));
    await time("runJob on the EventSet, keep 50, keepVertices [the filter]", () => api.runJob(graph, set, { keep: 50, keepVertices: ["export.severity.filter"] }));
    const run = await api.runJob(graph, set, { keep: 50 });
    const one = await api.runJob(graph, set, { keep: 50, keepVertices: ["export.severity.filter"] });
    const size = (v) => JSON.stringify(v).length;
    out.push(`the record as JSON: ${size(run)} B (sinks ${size(run.sinks)} B, vertices ${size(run.vertices)} B); with keepVertices [the filter] ${size(one)} B`);
    await time("JSON.parse(JSON.stringify(record)) in JS, keep 50", () => JSON.parse(JSON.stringify(run)));
    set.free();
    return out;
  }, { job, templates, text });
  console.log(lines.join("\n"));
} finally {
  await close();
}
