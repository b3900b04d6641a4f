// Browser test of examples/draft-preview's log reduction (issue 36), in headless Chromium: the
// reduce-logs job (a source, a grok parser, a log reducer, a sink) on its built-in sample of
// plain log lines. The grok module is fetched when a job with a grok parser runs, not before;
// the reduction per stage; the reducer's patterns (mask tokens, counts, samples, a summary);
// editing the similarity threshold in the stage settings changes the pattern count; the
// left / right view's JSON diff of one event across the grok parser; samples as JSON, NDJSON
// and plain text, and a file over 10 MB refused. The expected figures come from the package in
// Node on the same events (runJob), the page's wiring being what is tested here; the records
// themselves are tested against native runs (pipeline.*.test.mjs, incremental.node.test.mjs).
// Run: node --test tests/js/draft-preview-reduce.browser.test.mjs   (needs pkg/wasm built and /usr/bin/chromium)
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir, readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as api from "../../pkg/index.node.js";
import { openPage } from "./browser.mjs";

const ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "../..");
const SCREENSHOT = fileURLToPath(new URL("../../target/screenshots/draft-preview-reduce.png", import.meta.url));
const GROK_WASM = "jobgraph_grok_wasm_bg.wasm";

let server;
let page;
let problems;
let close;
/** Requests of the grok module's .wasm. */
const grokFetches = [];
/** The resolved reduce-logs graph and the sample's events, as the page reads them. */
let graph;
let events;

/** The package's run of the graph with the reducer's similarity threshold at `threshold`. */
async function expected(threshold) {
  const edited = structuredClone(graph);
  edited.vertices.find((v) => v.name === "reduce").similarityThreshold = threshold;
  const run = await api.runJob(edited, events, { keep: 50 });
  const record = (name) => run.vertices.find((v) => v.name === name);
  return { run, reduce: record("reduce"), parse: record("parse") };
}

before(async () => {
  const job = JSON.parse(await readFile(resolve(ROOT, "examples/jobs/reduce-logs.json"), "utf8"));
  const template = JSON.parse(await readFile(resolve(ROOT, "examples/templates/iceberg-source.json"), "utf8"));
  template.template = await readFile(resolve(ROOT, "examples/templates/iceberg-source.js"), "utf8");
  graph = (await api.resolve(job, { templates: [template] })).output.jobGraph;
  // Plain text: one event per line, `line-N` and the line as its message.
  events = (await readFile(resolve(ROOT, "examples/events/app.log"), "utf8")).split("\n")
    .map((message, i) => ({ id: `line-${i + 1}`, message }))
    .filter((e) => e.message.trim() !== "");
  ({ server, page, problems, close } = await openPage(ROOT, { viewport: { width: 1600, height: 1000 }, timeout: 20_000 }));
  page.on("request", (request) => request.url().endsWith(GROK_WASM) && grokFetches.push(request.url()));
});

after(async () => {
  await close?.();
});

const row = (stage) => page.locator(`#stages tr[data-stage="${stage}"]`);
const side = () => page.locator("#vertex-data");

/** Waits until the side panel shows `count` patterns. */
async function patternsAre(count) {
  await page.waitForFunction((n) => document.querySelector("#vertex-data")?.dataset.patterns === String(n), count);
}

test("reduce-logs: the grok module when needed, reduction per stage, patterns, the threshold changes them", async () => {
  // A job without a grok parser: the grok module is not fetched.
  await page.goto(`${server.url}/examples/draft-preview/#job=errors-to-vendor`);
  await page.waitForFunction(() => document.querySelector('#stages tr[data-stage="export.severity.filter"]')?.dataset.in === "300");
  assert.deepEqual(grokFetches, []);

  // reduce-logs runs on its own built-in sample: 1 000 plain log lines.
  await page.selectOption("#job", "reduce-logs");
  await page.waitForFunction(() => document.querySelector("#events-summary").textContent === "1,000 events · built-in sample app.log");
  assert.equal(await page.locator("#events-format").textContent(), "plain text lines");
  assert.equal(events.length, 1000);
  const at70 = await expected(70);
  await page.waitForFunction((out) => document.querySelector('#stages tr[data-stage="reduce"]')?.dataset.out === String(out), at70.reduce.eventsOut);
  assert.equal(grokFetches.length, 1, "the grok module, fetched once for the first job with a grok parser");

  // Every stage: in, out and the reduction; the reducer's is the share it held back.
  assert.equal(at70.parse.eventsOut, 1000);
  assert.ok(at70.reduce.eventsOut < 1000);
  for (const record of at70.run.vertices) {
    const r = row(record.name);
    assert.equal(await r.getAttribute("data-in"), String(record.eventsIn));
    assert.equal(await r.getAttribute("data-out"), String(record.eventsOut));
  }
  const share = (100 * (1000 - at70.reduce.eventsOut)) / 1000;
  assert.equal(await row("reduce").locator(".reduction").getAttribute("data-reduction"), share.toFixed(1));
  assert.equal(await row("reduce").locator(".reduction").textContent(), `−${share.toFixed(1)} %`);
  assert.equal(await row("parse").locator(".reduction").textContent(), "0 %");

  // The reducer's side panel: its patterns, most frequent first, mask tokens marked.
  await page.locator('#diagram g.vertex[data-name="reduce"]').click();
  await patternsAre(at70.reduce.patterns.length);
  const ids = await side().locator("li.pattern").evaluateAll((ns) => ns.map((n) => [n.dataset.patternId, Number(n.dataset.count)]));
  assert.deepEqual(ids, at70.reduce.patterns.slice(0, 100).map((p) => [p.id, p.count]));
  const first = side().locator("li.pattern").first();
  const text = at70.reduce.patterns[0].pattern;
  assert.match(text, /<timestamp>/);
  assert.equal(await first.locator(".pattern-text").textContent(), text.replace(/<\*>/g, "*").replace(/<([a-z]+)>/g, "$1"));
  assert.deepEqual(await first.locator(".token.mask").evaluateAll((ns) => ns.map((n) => n.dataset.mask)), [...text.matchAll(/<([a-z]+)>/g)].map((m) => m[1]));
  assert.equal(await side().locator(".side-reduction").getAttribute("data-reduction"), share.toFixed(1));

  // Opened: its samples, and the summary the reducer sent for it.
  await first.locator(".pattern-more > summary").click();
  // The samples are built by the `toggle` event, which fires in a task after the click.
  await first.locator(".pattern-samples").waitFor();
  const samples = await first.locator(".pattern-samples li").allTextContents();
  assert.deepEqual(samples, at70.reduce.patterns[0].samples);
  const all = await api.runJob(graph, events, { keep: 100_000, keepVertices: ["reduce"] });
  const summary = all.vertices.find((v) => v.name === "reduce").output
    .map((k) => k.event)
    .find((e) => e.tags?.["grepr.messagetype"]?.includes("summary") && e.attributes.grepr.patternId === at70.reduce.patterns[0].id);
  assert.ok(summary, "the most frequent pattern has a summary");
  await first.locator(`.pattern-summary[data-summary-id="${summary.id}"]`).waitFor();
  assert.equal(await first.locator(".summary-message").textContent(), summary.message);
  assert.match(summary.message, /^\[\d+ times in 5m\] /);

  // The stage settings: the reducer's similarity threshold. Lower merges patterns, 100 splits them.
  assert.match(await page.locator("#stage-inputs legend").textContent(), /^Settings of reduce \(log-reducer\)$/);
  const threshold = page.locator('#stage-inputs [name="similarityThreshold"]');
  assert.equal(await threshold.inputValue(), "70");
  const at40 = await expected(40);
  const at100 = await expected(100);
  assert.ok(at40.reduce.patterns.length < at70.reduce.patterns.length && at70.reduce.patterns.length < at100.reduce.patterns.length);
  await threshold.fill("40");
  await patternsAre(at40.reduce.patterns.length);
  await page.waitForFunction((out) => document.querySelector('#stages tr[data-stage="reduce"]')?.dataset.out === String(out), at40.reduce.eventsOut);
  await threshold.fill("100");
  await patternsAre(at100.reduce.patterns.length);
  // Below the catalog's minimum (20): the error names the field, the last counts stay.
  await threshold.fill("5");
  await page.locator('#stage-inputs [name="similarityThreshold"].invalid').waitFor();
  assert.match(await page.locator("#error").textContent(), /similarityThreshold/);
  await threshold.fill("70");
  await patternsAre(at70.reduce.patterns.length);
  assert.equal(await page.locator("#error").isHidden(), true);
  assert.deepEqual(problems, []);
});

test("left / right: one event's JSON diff across the grok parser; a reducer's held event", async () => {
  await page.locator("#compare > summary").click();
  await page.selectOption("#compare-left", "ingest.source");
  await page.selectOption("#compare-right", "parse");
  await page.locator(".diff-table").waitFor();
  assert.equal(await page.locator('#compare-lists [data-side="left"] li.compare-event').count(), 50);
  // line-1: the grok parser added the time, the service tag and the attributes of its rule.
  const [day, clock, level, service, host, ...rest] = events[0].message.split(" ");
  assert.equal(day, "2026-11-25");
  const rowOf = (path) => page.locator(`#event-diff tr[data-path="${path}"]`);
  assert.equal(await rowOf("message").getAttribute("data-status"), "same");
  assert.equal(await rowOf("eventTimestamp").getAttribute("data-status"), "added");
  assert.equal(await rowOf("eventTimestamp").locator("td").nth(1).textContent(), String(Date.parse(`${day}T${clock}Z`)));
  assert.equal(await rowOf("tags.service").locator("td").nth(1).textContent(), JSON.stringify([service]));
  assert.equal(await rowOf("attributes.level").locator("td").nth(1).textContent(), JSON.stringify(level));
  assert.equal(await rowOf("attributes.host").locator("td").nth(1).textContent(), JSON.stringify(host));
  assert.equal(await rowOf("attributes.text").locator("td").nth(1).textContent(), JSON.stringify(rest.join(" ")));

  // From the parser to the reducer: a sample keeps its id and gains grepr.*; a held event is
  // not on the right.
  await page.selectOption("#compare-left", "parse");
  await page.selectOption("#compare-right", "reduce");
  const run = (await expected(70)).reduce;
  const sent = new Set(run.output.map((k) => k.event.id));
  const held = events.slice(0, 50).find((e) => !sent.has(e.id));
  assert.ok(held, "one of the first 50 lines was held by the reducer");
  await page.locator(`#compare-lists [data-side="left"] li[data-id="${held.id}"]`).click();
  await page.locator('#event-diff [data-missing="true"]').waitFor();
  const sample = events.find((e) => sent.has(e.id));
  await page.locator(`#compare-lists [data-side="left"] li[data-id="${sample.id}"]`).click();
  await page.waitForFunction(() => document.querySelector('#event-diff tr[data-path="tags.grepr.messagetype"]'));
  assert.equal(await page.locator('#event-diff tr[data-path="tags.grepr.messagetype"] td').nth(1).textContent(), '["sample"]');
  assert.equal(await page.locator('#event-diff tr[data-path="attributes.grepr.repeatCount"]').getAttribute("data-status"), "added");
  await mkdir(fileURLToPath(new URL("../../target/screenshots/", import.meta.url)), { recursive: true });
  await page.screenshot({ path: SCREENSHOT, fullPage: true });
  assert.deepEqual(problems, []);
});

test("samples: plain text lines, one JSON event, NDJSON; a file over 10 MB is refused", async () => {
  const box = page.locator("#events");
  const drop = (name, text) => page.evaluate(([name, text]) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([text], name));
    document.querySelector("#events").dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, [name, text]);
  const sourceOut = (n) => page.waitForFunction((n) => document.querySelector('#stages tr[data-stage="ingest.source"]')?.dataset.out === String(n), n);

  // Plain text: a line an event, blank lines skipped.
  await drop("three.log", "first line\n\nsecond line\r\nthird line\n");
  await sourceOut(3);
  assert.equal(await page.locator("#events-summary").textContent(), "3 events · file three.log");
  assert.equal(await page.locator("#events-format").textContent(), "plain text lines");
  // One event written over several lines (JSON).
  await box.fill(JSON.stringify({ id: "one", message: "2026-11-25 12:00:00.000 INFO web web-1 hello" }, null, 2));
  await sourceOut(1);
  assert.equal(await page.locator("#events-format").textContent(), "JSON");
  assert.equal(await row("parse").getAttribute("data-out"), "1");
  // NDJSON.
  await box.fill(events.slice(0, 4).map((e) => JSON.stringify(e)).join("\n"));
  await sourceOut(4);
  assert.equal(await page.locator("#events-format").textContent(), "NDJSON");
  // Over 10 MB: refused, the 4 events stay.
  await drop("big.log", "x".repeat(10 * 1024 * 1024 + 1));
  await page.locator("#events-error").waitFor();
  assert.match(await page.locator("#events-error").textContent(), /^File big\.log: 10\.0 MB, the preview reads samples of 10 MB at most\. Keeping the previous 4 events\.$/);
  // Just under 10 MB of lines is read (104 857 lines of 100 bytes).
  await drop("ten.log", `${"x".repeat(99)}\n`.repeat(104_857));
  await sourceOut(104_857);
  assert.match(await page.locator("#events-summary").textContent(), /^104,857 events · file ten\.log$/);
  assert.match(await box.getAttribute("placeholder"), /too many to edit here/);
  // The built-in sample again.
  await page.click("#events-sample");
  await sourceOut(1000);
  assert.deepEqual(problems, []);
});
