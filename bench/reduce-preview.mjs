// Issue 36's browser figure: in headless Chromium, the draft preview's job mode on the
// reduce-logs job (examples/jobs/reduce-logs.json: a source, a grok parser, a log reducer, a
// sink) over 1 000 sample events (examples/events/app.log, plain log lines), the reducer's side
// panel open; each keystroke in the reducer's similarity threshold (ArrowDown / ArrowUp in the
// number field: 70 → 50 → 70, one unit a key), from the input event to the counts, the stages'
// reduction and the reducer's patterns redrawn (`#diagram[data-outputs-ms]`). Then the same
// runs through `runJob` alone: whole runs, and incremental ones (the page's), on the EventSet.
// Prints median and max; goal: median ≤ 16 ms.
// Usage: node bench/reduce-preview.mjs [rounds=3]   (needs pkg/wasm built and Chromium, as tests/js/ do)
import { fileURLToPath } from "node:url";
import { openPage } from "../tests/js/browser.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
const rounds = Number(process.argv[2] ?? 3);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const stats = (xs) => `median ${median(xs).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms (${xs.length} keystrokes)`;

const { page, server, problems, close } = await openPage(root, { viewport: { width: 1600, height: 1000 }, timeout: 30_000 });
try {
  await page.goto(`${server.url}/examples/draft-preview/#job=reduce-logs`);
  await page.waitForFunction(() => document.querySelector("#events-summary").textContent.startsWith("1,000 events"));
  await page.waitForFunction(() => document.querySelector('#stages tr[data-stage="parse"]')?.dataset.out === "1000");
  await page.locator('#diagram g.vertex[data-name="reduce"]').click();
  await page.locator("#vertex-data[data-patterns]").waitFor();
  const field = page.locator('#stage-inputs [name="similarityThreshold"]');
  await field.click();

  const outputs = [];
  const counts = [];
  const runJob = [];
  const resolve = [];
  const patterns = new Set();
  async function keystroke(key) {
    const before = Number(await page.locator("#diagram").getAttribute("data-run-seq"));
    await page.keyboard.press(key);
    await page.waitForFunction((seq) => {
      const d = document.querySelector("#diagram").dataset;
      return Number(d.runSeq) > seq && d.countsSeq === d.renderSeq && d.outputsMs !== undefined;
    }, before);
    const data = await page.locator("#diagram").evaluate((n) => ({ ...n.dataset }));
    outputs.push(Number(data.outputsMs));
    counts.push(Number(data.countsMs));
    runJob.push(Number(data.runJobMs));
    resolve.push(Number(data.resolveMs) + Number(data.drawMs));
    patterns.add(await page.locator("#vertex-data").getAttribute("data-patterns"));
  }
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < 20; i++) await keystroke("ArrowDown");
    for (let i = 0; i < 20; i++) await keystroke("ArrowUp");
  }
  if (problems.length) throw new Error(`the page reported problems:\n${problems.join("\n")}`);
  console.log(`reduce-logs on 1 000 events (grok parser + log reducer), a keystroke in the reducer's similarity threshold (Chromium):`);
  console.log(`  to counts, stage reduction and patterns redrawn: ${stats(outputs)}; goal ≤ 16 ms`);
  console.log(`  to the counts on the diagram:                    ${stats(counts)}`);
  console.log(`  of which the re-resolution and the diagram:       ${stats(resolve)}`);
  console.log(`  of which runJob (incremental, on the EventSet):  ${stats(runJob)}`);
  console.log(`  pattern counts seen: ${[...patterns].sort((a, b) => a - b).join(", ")}`);

  // runJob alone, in the page: the resolved graph, whole and incremental runs on one EventSet.
  const lines = await page.evaluate(async () => {
    const api = await import("/pkg/index.js");
    const text = await (await fetch("/examples/events/app.log")).text();
    const events = text.split("\n").filter(Boolean).map((message, i) => ({ id: `line-${i + 1}`, message }));
    const job = await (await fetch("/examples/jobs/reduce-logs.json")).json();
    const template = await (await fetch("/examples/templates/iceberg-source.json")).json();
    template.template = await (await fetch("/examples/templates/iceberg-source.js")).text();
    const graph = (await api.resolve(job, { templates: [template] })).output.jobGraph;
    const reducer = graph.vertices.findIndex((v) => v.type === "log-reducer");
    const set = api.loadEvents(events);
    const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
    const out = [];
    for (const incremental of [false, true]) {
      const times = [];
      for (let i = 0; i < 45; i++) {
        const edited = structuredClone(graph);
        edited.vertices[reducer].similarityThreshold = 50 + (i % 21);
        const started = performance.now();
        await api.runJob(edited, set, { keep: 50, keepVertices: ["reduce"], keepSinks: false, incremental });
        if (i >= 5) times.push(performance.now() - started);
      }
      out.push(`runJob ${incremental ? "incremental" : "whole      "} (the threshold changed every run): median ${median(times).toFixed(1)} ms, min ${Math.min(...times).toFixed(1)} ms`);
    }
    set.free();
    return out;
  });
  for (const line of lines) console.log(`  ${line}`);
} finally {
  await close();
}
