// Browser test of the data panel of examples/draft-preview's job mode: headless Chromium against
// a loopback static server. Opens the errors-to-vendor job on the built-in sample events, checks
// the event counts on the edges against counts computed here from the events (independently of
// the package), edits the inputs that drive the filter's query and the source's query, opens the
// side panel of a vertex, feeds bad events, a dropped file and 1 000 pasted events, and measures
// keystroke-to-updated-counts time (printed, not asserted). The events are read into the
// package once (an EventSet) when they change, never on a keystroke in a query.
// Run: node --test tests/js/draft-preview-data.browser.test.mjs   (needs pkg/wasm built and /usr/bin/chromium)
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdir, readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { openPage } from "./browser.mjs";

const ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "../..");
const SCREENSHOT = fileURLToPath(new URL("../../target/screenshots/draft-preview-data.png", import.meta.url));

const SOURCE = "ingest.source";
const FILTER = "export.severity.filter";
/** The resolved job's edges (edge text exactly as in the resolved graph). */
const SOURCE_EDGE = "ingest.source:output -> export.severity.filter:input";
const FILTER_EDGE = "export.severity.filter:output -> export.enrich.tag:input";

// ---------------------------------------------------------------------------------------------
// What the job does, computed here from the events.
//
// examples/jobs/errors-to-vendor.json: `ingest` (iceberg-source: a source whose query is the
// `where` input, default "*") -> `export` (vendor-export: its `minLevel` input, "warn" in the
// job, goes to a nested severity-filter@2 with `excludeServices: ["healthcheck"]`, whose script
// writes the query `(level:<kept levels> OR …) AND NOT service:"healthcheck"`, the kept levels
// being minLevel and those above it).

const LEVELS = ["debug", "info", "warn", "error"];
const tagHas = (event, key, value) => (event.tags?.[key] ?? []).includes(value);

/** The events that pass export's severity filter with `minLevel`. */
function passFilter(events, minLevel) {
  const kept = LEVELS.slice(LEVELS.indexOf(minLevel));
  return events.filter((e) => kept.some((level) => tagHas(e, "level", level)) && !tagHas(e, "service", "healthcheck"));
}

/** The events a one-term query with wildcards (`*timeout`) matches: a word of the message, case-insensitively. */
function matchTerm(events, term) {
  const pattern = new RegExp(`^${term.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".")}$`, "i");
  return events.filter((e) => (e.message ?? "").split(/[^\p{L}\p{N}_]+/u).some((word) => word !== "" && pattern.test(word)));
}

const parseNdjson = (text) => text.split("\n").filter((line) => line.trim()).map((line) => JSON.parse(line));

let server;
let page;
/** Page errors, console errors, failed requests: any one fails the test. */
let problems;
let close;
let sample;

before(async () => {
  sample = parseNdjson(await readFile(resolve(ROOT, "examples/events/sample.ndjson"), "utf8"));
  ({ server, page, problems, close } = await openPage(ROOT, { viewport: { width: 1600, height: 1000 }, timeout: 15_000 }));
});

after(async () => {
  await close?.();
});

const vertex = (name) => page.locator(`#diagram g.vertex[data-name="${name}"]`);
const edgeCount = (edge) => page.locator(`#diagram g.edge-count[data-edge="${edge}"]`);
const hasClass = (locator, name) => locator.evaluate((n, c) => n.classList.contains(c), name);

/** Waits for the count label of `edge` to read `events`. */
async function edgeIs(edge, events) {
  await page.waitForFunction(([e, n]) => document.querySelector(`#diagram g.edge-count[data-edge="${e}"]`)?.dataset.events === String(n), [edge, events]);
  assert.equal(await edgeCount(edge).locator("text").textContent(), events.toLocaleString("en-US"));
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

test("data panel: counts on the edges follow the filter's inputs; the side panel lists a vertex's events", async () => {
  await page.goto(`${server.url}/examples/draft-preview/#job=errors-to-vendor`);
  await edgeIs(SOURCE_EDGE, sample.length);
  assert.equal(sample.length, 300);
  assert.match(await page.locator("#events-summary").textContent(), /^300 events · built-in sample/);

  // minLevel "warn" (the job's value): the filter's out-edge carries what passes it.
  const warn = passFilter(sample, "warn");
  await edgeIs(FILTER_EDGE, warn.length);
  assert.ok(warn.length > 0 && warn.length < 300);
  const filterCount = page.locator(`#diagram g.vertex-count[data-name="${FILTER}"]`);
  assert.equal(await filterCount.textContent(), `300 → ${warn.length}`);
  assert.equal(await page.locator(`#diagram g.vertex-count[data-name="${SOURCE}"]`).textContent(), "300 → 300");
  // Every edge of the diagram has its label.
  assert.equal(await page.locator("#diagram g.edge-count").count(), await page.locator("#diagram g.edge").count());
  assert.match(await page.locator("#run-status").textContent(), new RegExp(`Ran on 300 events[\\s\\S]*export\\.vendor ${warn.length}`));

  // export's minLevel drives the nested filter's query: fewer events with "error", more with "info".
  await page.click('#operations button.op[data-op="export"]');
  const minLevel = page.locator('#op-inputs [name="minLevel"]');
  assert.equal(await minLevel.inputValue(), '"warn"');
  await minLevel.selectOption('"error"');
  const error = passFilter(sample, "error");
  assert.ok(error.length < warn.length);
  await edgeIs(FILTER_EDGE, error.length);
  assert.equal(await filterCount.textContent(), `300 → ${error.length}`);
  await minLevel.selectOption('"info"');
  const info = passFilter(sample, "info");
  assert.ok(info.length > warn.length);
  await edgeIs(FILTER_EDGE, info.length);
  await minLevel.selectOption('"warn"');
  await edgeIs(FILTER_EDGE, warn.length);
  await edgeIs(SOURCE_EDGE, 300);

  // Click the filter: the side panel lists its input count, output and dropped events.
  await vertex(FILTER).click();
  const side = page.locator("#vertex-data");
  await side.waitFor();
  assert.equal(await page.locator("#vertex-data-title").textContent(), FILTER);
  assert.equal(await side.locator('[data-count="in"]').textContent(), "300");
  assert.equal(await side.locator('[data-count="out"]').textContent(), String(warn.length));
  assert.equal(await side.locator('[data-count="dropped"]').textContent(), String(300 - warn.length));
  const outputIds = await side.locator('[data-list="output"] li.event').evaluateAll((ns) => ns.map((n) => n.dataset.id));
  assert.deepEqual(outputIds, warn.slice(0, 50).map((e) => e.id), "the first 50 events out, in order");
  const dropped = side.locator('[data-list="dropped"] li.event');
  const droppedIds = sample.filter((e) => !warn.includes(e)).slice(0, 50).map((e) => e.id);
  assert.deepEqual(await dropped.evaluateAll((ns) => ns.map((n) => n.dataset.id)), droppedIds);
  assert.equal(await dropped.first().locator(".dropped-by").textContent(), `dropped by ${FILTER}`);
  assert.equal(await side.locator(".dropped-by").count(), 50);
  assert.match(await side.locator('[data-list="dropped"] h3').textContent(), new RegExp(`first 50 of ${300 - warn.length}`));

  // The transform: the tags it added are highlighted.
  await vertex("export.enrich.tag").click();
  await page.waitForFunction(() => document.querySelector("#vertex-data-title").textContent === "export.enrich.tag");
  const added = await side.locator("li.event").first().locator(".tag.added").evaluateAll((ns) => ns.map((n) => n.textContent));
  assert.deepEqual(added, ["env:production", "pipeline:vendor-export", "enrichedBy:anonymous"]);
  assert.equal(await side.locator('[data-list="dropped"]').count(), 0, "a transform drops nothing");
  await page.click("#vertex-data-close");
  await side.waitFor({ state: "hidden" });
  assert.ok(!(await hasClass(vertex("export.enrich.tag"), "selected")));

  // Draft mode: the tag's preview sampler (logs-sample) is not simulated: marked, with a tooltip.
  await page.check("#job-draft");
  await page.waitForFunction(() => document.querySelector('#diagram g.vertex[data-name="export.enrich.preview"]')?.dataset.simulated === "false");
  const preview = vertex("export.enrich.preview");
  assert.ok(await hasClass(preview, "not-simulated"));
  assert.match(await preview.locator(":scope > title").textContent(), /^not simulated: logs-sample\n/);
  assert.ok(!(await hasClass(vertex(FILTER), "not-simulated")));
  await page.uncheck("#job-draft");
  await preview.waitFor({ state: "detached" });

  // A query that does not parse: the run's error (INVALID_QUERY, with its caret) under the diagram.
  await page.click('#operations button.op[data-op="ingest"]');
  const where = page.locator('#op-inputs [name="where"]');
  await where.fill("service:");
  const failed = page.locator("#run-status.failed");
  await failed.waitFor();
  assert.match(await failed.textContent(), /INVALID_QUERY[\s\S]*`service:` at column 1 needs a value \(vertex ingest\.source\)/);
  assert.equal(await failed.locator("pre.snippet").textContent(), "  service:\n  ^");
  assert.equal(await page.locator("#diagram g.edge-count").count(), 0, "no counts from a failed run");
  await where.fill("*");
  await edgeIs(FILTER_EDGE, warn.length);
  assert.ok(await page.locator("#run-status.failed").count() === 0);

  assert.deepEqual(problems, []);
});

test("data panel: bad events keep the previous ones, a dropped file, 1 000 pasted events, keystroke to counts", async () => {
  const events = page.locator("#events");
  const eventsError = page.locator("#events-error");

  // NDJSON with a line that is not JSON: the line is named, the 300 events stay.
  const good = JSON.stringify(sample[0]);
  await events.fill(`${good}\n${good}\n{"id": "x", "message": \n${good}`);
  await eventsError.waitFor();
  assert.match(await eventsError.textContent(), /^Line 3: not valid JSON \(.+\)[\s\S]*Keeping the previous 300 events\.$/);
  assert.ok(await hasClass(events, "invalid"));
  assert.match(await page.locator("#events-summary").textContent(), /^300 events · built-in sample \(the text below has an error\)$/);
  // An event the package refuses (a tag value that is not an array): its line, in the package's words.
  await events.fill(`${good}\n\n{"id": "y", "tags": {"service": "auth"}}`);
  await page.waitForFunction(() => /^Line 3: tags\.service must be an array of strings/.test(document.querySelector("#events-error").textContent));
  await edgeIs(SOURCE_EDGE, 300);
  // A JSON array is read too.
  await events.fill(JSON.stringify(sample.slice(0, 7)));
  await edgeIs(SOURCE_EDGE, 7);
  assert.ok(await eventsError.isHidden());

  // A file dropped on the panel.
  const dropped = sample.slice(0, 20).map((e) => JSON.stringify(e)).join("\n");
  await page.evaluate((text) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([text], "twenty.ndjson", { type: "application/x-ndjson" }));
    document.querySelector("#events").dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, dropped);
  await edgeIs(SOURCE_EDGE, 20);
  assert.equal(await page.locator("#events-summary").textContent(), "20 events · file twenty.ndjson");
  assert.equal(await events.inputValue(), dropped);
  await edgeIs(FILTER_EDGE, passFilter(sample.slice(0, 20), "warn").length);

  // 1 000 events (scripts/sample-events.mjs 1000 7), pasted.
  const text = execFileSync(process.execPath, [resolve(ROOT, "scripts/sample-events.mjs"), "1000", "7"], { encoding: "utf8", maxBuffer: 1 << 24 });
  const thousand = parseNdjson(text);
  assert.equal(thousand.length, 1000);
  const setsBefore = Number(await page.locator("#data-panel").getAttribute("data-event-sets"));
  await events.fill(text);
  await edgeIs(SOURCE_EDGE, 1000);
  const sets = Number(await page.locator("#data-panel").getAttribute("data-event-sets"));
  assert.equal(sets, setsBefore + 1, "the pasted events are read once");
  await edgeIs(FILTER_EDGE, passFilter(thousand, "warn").length);
  assert.match(await page.locator("#events-summary").textContent(), /^1,000 events/);

  // The filter's side panel stays open while typing.
  await vertex(FILTER).click();
  await page.locator("#vertex-data").waitFor();

  // Type into the source's query (ingest's `where`), one key at a time: each keystroke
  // re-resolves (one script), re-runs the job on the 1 000 events and redraws the counts.
  await page.click('#operations button.op[data-op="ingest"]');
  const where = page.locator('#op-inputs [name="where"]');
  assert.equal(await where.inputValue(), "*");
  await where.click();
  await page.keyboard.press("End");
  const timings = { counts: [], outputs: [], paint: [], run: [], runJob: [] };
  let value = "*";
  const keystroke = async (key) => {
    const before = Number(await page.locator("#diagram").getAttribute("data-render-seq"));
    await page.keyboard.press(key);
    value = key === "Backspace" ? value.slice(0, -1) : value + key;
    const source = matchTerm(thousand, value);
    const filtered = passFilter(source, "warn");
    await page.waitForFunction(([seq, e1, n1, e2, n2]) => {
      const d = document.querySelector("#diagram").dataset;
      const count = (edge) => document.querySelector(`#diagram g.edge-count[data-edge="${edge}"]`)?.dataset.events;
      return Number(d.renderSeq) > seq && d.countsSeq === d.renderSeq && count(e1) === String(n1) && count(e2) === String(n2);
    }, [before, SOURCE_EDGE, source.length, FILTER_EDGE, filtered.length]);
    // And the next frame has been painted (the side panel re-rendered too).
    await page.waitForFunction(() => document.querySelector("#diagram").dataset.countsPaintSeq === document.querySelector("#diagram").dataset.runSeq);
    const data = await page.locator("#diagram").evaluate((n) => ({ ...n.dataset }));
    assert.equal(data.countsSeq, data.renderSeq);
    timings.counts.push(Number(data.countsMs));
    timings.outputs.push(Number(data.outputsMs));
    timings.paint.push(Number(data.countsPaintMs));
    timings.run.push(Number(data.runMs));
    timings.runJob.push(Number(data.runJobMs));
    assert.equal(await page.locator('#vertex-data [data-count="in"]').textContent(), source.length.toLocaleString("en-US"));
  };
  for (const key of "timeout*") await keystroke(key);
  await keystroke("Backspace");
  await keystroke("Backspace");
  assert.equal(value, "*timeou");
  assert.equal(timings.counts.length, 10);
  assert.equal(Number(await page.locator("#data-panel").getAttribute("data-event-sets")), sets, "no keystroke read the events again");
  console.log(
    `keystroke to updated counts, errors-to-vendor on 1 000 events (Chromium, ${timings.counts.length} keystrokes): ` +
      `median ${median(timings.counts).toFixed(1)} ms, max ${Math.max(...timings.counts).toFixed(1)} ms ` +
      `(with the stage outputs of the side panel: median ${median(timings.outputs).toFixed(1)} ms, max ${Math.max(...timings.outputs).toFixed(1)} ms; ` +
      `to the next frame painted: median ${median(timings.paint).toFixed(1)} ms, max ${Math.max(...timings.paint).toFixed(1)} ms; ` +
      `run and counts drawn: median ${median(timings.run).toFixed(1)} ms, of which runJob on the EventSet: median ${median(timings.runJob).toFixed(1)} ms); goal ≤ 16 ms`,
  );

  // Back to every event, for the screenshot: the filter's panel, its dropped events.
  await where.fill("*");
  await edgeIs(SOURCE_EDGE, 1000);
  await page.locator('#vertex-data [data-list="dropped"] .dropped-by').first().waitFor();
  // The whole page in the viewport, the side panel scrolled to the dropped events (its "Dropped" tile).
  await page.setViewportSize({ width: 1600, height: 1300 });
  await page.click('#vertex-data [data-tile="dropped"]');
  await page.evaluate(() => window.scrollTo(0, 0));
  assert.ok(await page.locator('#vertex-data [data-list="dropped"] h3').isVisible());
  await mkdir(fileURLToPath(new URL("../../target/screenshots/", import.meta.url)), { recursive: true });
  await page.screenshot({ path: SCREENSHOT });

  assert.deepEqual(problems, []);
});
