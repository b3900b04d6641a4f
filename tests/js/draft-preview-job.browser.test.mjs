// Browser test of the job mode of examples/draft-preview: headless Chromium against a loopback
// static server. Opens the example jobs and a generated 50-operation job, edits operations'
// inputs, and measures keystroke-to-diagram time (printed, not asserted).
// Run: node --test tests/js/draft-preview-job.browser.test.mjs   (needs pkg/wasm built and /usr/bin/chromium)
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { openPage } from "./browser.mjs";

const ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "../..");
const SCREENSHOT = fileURLToPath(new URL("../../target/screenshots/draft-preview-job.png", import.meta.url));

let server;
let page;
/** Page errors, console errors, failed requests: any one fails the test. */
let problems;
let close;

before(async () => {
  ({ server, page, problems, close } = await openPage(ROOT, { viewport: { width: 1600, height: 1000 }, timeout: 15_000 }));
});

after(async () => {
  await close?.();
});

const vertex = (name) => page.locator(`#diagram g.vertex[data-name="${name}"]`);
const frame = (path) => page.locator(`#diagram g.group[data-path="${path}"]`);
const hasClass = (locator, name) => locator.evaluate((n, c) => n.classList.contains(c), name);
const detail = (name) => vertex(name).locator("text.detail").textContent();

/** Whether the vertex's box lies inside the operation's frame, on screen. */
async function inside(vertexName, path) {
  const box = await vertex(vertexName).locator("rect.box").boundingBox();
  const outer = await frame(path).locator("rect.frame").first().boundingBox();
  return box.x >= outer.x && box.y >= outer.y && box.x + box.width <= outer.x + outer.width && box.y + box.height <= outer.y + outer.height;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

test("job mode: example job, grouping by operation, draft vertices, errors inline", async () => {
  await page.goto(`${server.url}/examples/draft-preview/`);
  await page.locator("#diagram g.vertex[data-name]").first().waitFor();
  await page.click("#tab-job");
  await frame("enrich").waitFor();
  assert.equal(await page.getAttribute("#tab-job", "aria-selected"), "true");
  assert.ok(await page.isHidden("#template-controls"));

  // The first example job: examples/jobs/draft-preview.json.
  assert.equal(await page.inputValue("#job"), "draft-preview");
  const jobs = await page.locator("#job option").evaluateAll((nodes) => nodes.map((n) => n.value));
  assert.deepEqual(jobs, ["draft-preview", "errors-to-vendor", "checkout-alerts", "reduce-logs", "generated-50"]);
  assert.deepEqual(await page.locator("#operations button.op").evaluateAll((ns) => ns.map((n) => n.dataset.op)), ["errors", "enrich"]);
  const names = await page.locator("#diagram g.vertex").evaluateAll((ns) => ns.map((n) => n.dataset.name));
  assert.deepEqual(names.toSorted(), ["archive", "enrich.preview", "enrich.tag", "errors.filter", "preview-panel", "source"]);

  // Vertices are grouped by the operation that produced them; plain vertices stay outside.
  assert.equal(await page.getAttribute('#diagram g.vertex[data-name="enrich.tag"]', "data-operation"), "enrich");
  assert.equal(await page.getAttribute('#diagram g.vertex[data-name="source"]', "data-operation"), null);
  assert.ok(await inside("enrich.tag", "enrich"));
  assert.ok(await inside("enrich.preview", "enrich"));
  assert.ok(await inside("errors.filter", "errors"));
  assert.equal(await page.locator("#diagram g.group").count(), 2);

  // enrich has draftMode: its sampler exists only in draft mode and is its draft output.
  assert.ok(await hasClass(vertex("enrich.preview"), "draft"));
  assert.match(await vertex("enrich.preview").locator(".badge").textContent(), /draft output: enrich:preview/);
  assert.ok(!(await hasClass(vertex("enrich.tag"), "draft")));
  assert.ok(await hasClass(frame("enrich"), "draft"));

  // Edit enrich's inputs: the diagram follows.
  await page.click('#operations button.op[data-op="enrich"]');
  assert.equal(await page.inputValue('#op-inputs [name="sampleSize"]'), "5", "the form starts at the job's values");
  assert.equal(await page.locator("#op-inputs textarea[name=tags]").inputValue(), '{\n  "team": "payments"\n}');
  await page.fill('#op-inputs [name="sampleSize"]', "7");
  await page.waitForFunction(() => document.querySelector('#diagram g[data-name="enrich.preview"] text.detail')?.textContent === "size: 7");

  // An invalid value: shown inline with its pointer, the field and the operation marked.
  await page.fill('#op-inputs [name="sampleSize"]', "0");
  const error = page.locator('#error[data-code="INPUT_VALIDATION_FAILED"]');
  await error.waitFor();
  assert.match(await error.innerText(), /\/sampleSize[\s\S]*0 is less than the minimum of 1/);
  assert.ok(await hasClass(page.locator('#op-inputs [name="sampleSize"]'), "invalid"));
  assert.ok(await hasClass(page.locator('#operations button.op[data-op="enrich"]'), "failed"));
  assert.ok(await page.locator("#canvas.stale").isVisible(), "the last good diagram stays, dimmed");
  await page.fill('#op-inputs [name="sampleSize"]', "9");
  await page.locator("#error").waitFor({ state: "hidden" });
  assert.equal(await page.locator("#op-inputs .invalid").count(), 0);
  assert.equal(await detail("enrich.preview"), "size: 9");

  // Draft mode off for enrich: the job's edge from its draft output no longer resolves.
  await page.uncheck("#op-draft");
  await page.locator('#error[data-code="UNKNOWN_PORT"]').waitFor();
  assert.match(await page.locator("#error").innerText(), /preview/);
  await page.check("#op-draft");
  await page.locator("#error").waitFor({ state: "hidden" });
  await vertex("enrich.preview").waitFor();

  // The other example job: nested operations are nested frames.
  await page.selectOption("#job", "errors-to-vendor");
  await frame("export › enrich").waitFor();
  assert.ok(await inside("export.enrich.tag", "export › enrich"));
  assert.ok(await inside("export.enrich.tag", "export"));
  assert.ok(await inside("ingest.source", "ingest"));
  assert.equal(await page.locator('#diagram g.vertex[data-name="export.enrich.preview"]').count(), 0, "not in draft mode");
  await page.check("#job-draft");
  await vertex("export.enrich.preview").waitFor();
  assert.ok(await hasClass(vertex("export.enrich.preview"), "draft"));
  assert.match(await vertex("export.enrich.preview").locator(".badge").textContent(), /draft output: export:preview/);
  await page.uncheck("#job-draft");
  await vertex("export.enrich.preview").waitFor({ state: "detached" });

  assert.deepEqual(problems, []);
});

test("job mode: 50 operations, one script per keystroke, keystroke-to-diagram time", async () => {
  await page.selectOption("#job", "generated-50");
  await frame("lane9-export").waitFor();
  assert.equal(await page.locator("#operations button.op").count(), 50);
  assert.equal(await page.locator("#diagram g.group.depth-1").count(), 50);
  // Draft mode on tag in lanes 0, 3, 6, 9 and on export in lane 1.
  for (const name of ["lane0-tag.preview", "lane9-tag.preview", "lane1-export.enrich.preview"]) {
    assert.ok(await hasClass(vertex(name), "draft"), `${name} is a draft vertex`);
  }
  assert.equal(await vertex("lane4-tag.preview").count(), 0);
  assert.ok(await inside("lane1-export.enrich.preview", "lane1-export › enrich"));
  assert.ok(await inside("lane4-ingest.source", "lane4-ingest"));

  // Select an operation from the diagram (its frame's label), then type into its form.
  await frame("lane4-ingest").locator(".label").click();
  assert.ok(await hasClass(page.locator('#operations button.op[data-op="lane4-ingest"]'), "current"));
  assert.ok(await hasClass(frame("lane4-ingest"), "current"));
  const table = page.locator('#op-inputs [name="table"]');
  assert.equal(await table.inputValue(), "lane4_logs");
  await table.click();
  await page.keyboard.press("End");

  const timings = { keystroke: [], paint: [], resolve: [] };
  const measure = async (expected) => {
    await page.waitForFunction((text) => {
      const node = document.querySelector('#diagram g[data-name="lane4-ingest.source"] text.detail');
      const diagram = document.querySelector("#diagram");
      return node?.textContent === text && diagram.dataset.paintSeq === diagram.dataset.renderSeq;
    }, `table: ${expected}`);
    const data = await page.locator("#diagram").evaluate((n) => ({ ...n.dataset }));
    assert.equal(data.scriptsRun, "1", "a keystroke re-runs the edited operation's script only");
    assert.ok(Number(data.fromCache) >= 69, `the other executions come from the cache (${data.fromCache})`);
    timings.keystroke.push(Number(data.keystrokeMs));
    timings.paint.push(Number(data.paintMs));
    timings.resolve.push(Number(data.resolveMs));
  };
  let value = "lane4_logs";
  for (const key of "_west") {
    await page.keyboard.type(key);
    value += key;
    await measure(value);
  }
  assert.match(await page.locator("#json").textContent(), /"table": "lane4_logs_west"/);
  assert.match(await page.locator("#status").textContent(), /1 script run/);
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press("Backspace");
    value = value.slice(0, -1);
    // Back to values seen before: those come from the cache, so no script runs: type new ones.
    await page.keyboard.type(String(i));
    value += String(i);
    await measure(value);
  }
  console.log(
    `keystroke to diagram, 50-operation job (Chromium, median of ${timings.keystroke.length}): ` +
      `${median(timings.keystroke).toFixed(1)} ms to the diagram updated, ${median(timings.paint).toFixed(1)} ms to the next frame; ` +
      `re-resolution in the page ${median(timings.resolve).toFixed(2)} ms`,
  );

  // Draft mode for every operation: every tag gets its sampler.
  await page.check("#job-draft");
  await vertex("lane4-tag.preview").waitFor();
  assert.ok(await hasClass(vertex("lane4-tag.preview"), "draft"));
  assert.equal(await page.locator("#diagram g.vertex.draft").count(), 20, "10 tag samplers and 10 export samplers");

  await mkdir(fileURLToPath(new URL("../../target/screenshots/", import.meta.url)), { recursive: true });
  await page.uncheck("#job-draft");
  await vertex("lane4-tag.preview").waitFor({ state: "detached" });
  await page.screenshot({ path: SCREENSHOT, fullPage: true });

  // The template mode still works after the job mode, and the job keeps its edits.
  await page.click("#tab-template");
  await page.locator('#diagram g.vertex[data-name^="preview."]').first().waitFor();
  await page.click("#tab-job");
  await page.waitForFunction((text) => document.querySelector('#diagram g[data-name="lane4-ingest.source"] text.detail')?.textContent === text, `table: ${value}`);
  assert.equal(await page.inputValue('#op-inputs [name="table"]'), value);

  assert.deepEqual(problems, []);
});
