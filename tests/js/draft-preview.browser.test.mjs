// Browser test of examples/draft-preview: headless Chromium against a loopback static server.
// Run: node --test tests/js/draft-preview.browser.test.mjs   (needs pkg/wasm built and /usr/bin/chromium)
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { openPage } from "./browser.mjs";

// The repository root, without a trailing separator (startServer appends one).
const ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "../..");
const SCREENSHOT = fileURLToPath(new URL("../../target/screenshots/draft-preview.png", import.meta.url));

let server;
let page;
/** Page errors, console errors, failed requests: any one fails the test. */
let problems;
let close;

before(async () => {
  ({ server, page, problems, close } = await openPage(ROOT, { viewport: { width: 1360, height: 900 }, timeout: 10_000 }));
});

after(async () => {
  await close?.();
});

const vertex = (name) => page.locator(`#diagram g.vertex[data-name="${name}"]`);

test("draft preview: form, live diagram, draft mode, errors", async () => {
  await page.goto(`${server.url}/examples/draft-preview/`);
  await page.locator("#diagram g.vertex[data-name]").first().waitFor();

  // Every template of the catalog is offered.
  const options = await page.locator("#template option").evaluateAll((nodes) => nodes.map((n) => n.value));
  assert.deepEqual(options.toSorted(), ["alert-route", "iceberg-source", "severity-filter-v1", "severity-filter-v2", "tag-enrich", "vendor-export"]);

  // A nested template resolves (vendor-export uses severity-filter@2 and tag-enrich); its
  // required input is marked and starts empty, so the page reports it and marks the field.
  await page.selectOption("#template", "vendor-export");
  await page.locator('#error[data-code="INPUT_VALIDATION_FAILED"]').waitFor();
  assert.match(await page.locator("#error").innerText(), /"integration" is a required property/);
  assert.ok(await page.locator('#inputs [name="integration"]').evaluate((n) => n.classList.contains("invalid")));
  assert.equal(await page.locator('#inputs label[for="input-integration"] .required').count(), 1);
  await page.fill('#inputs [name="integration"]', "datadog");
  await vertex("preview.vendor").waitFor();
  await page.locator("#error").waitFor({ state: "hidden" });
  assert.equal(await page.locator('#inputs [name="integration"].invalid').count(), 0);
  // The draft output `preview` maps to `enrich:preview`, a draft output of the nested template.
  assert.ok(await vertex("preview.enrich.preview").evaluate((n) => n.classList.contains("draft")));
  assert.ok(!(await vertex("preview.enrich.tag").evaluate((n) => n.classList.contains("draft"))));

  // tag-enrich: the form comes from its inputSchema, defaults prefilled.
  await page.selectOption("#template", "tag-enrich");
  await vertex("preview.tag").waitFor();
  await vertex("preview.preview").waitFor();
  assert.equal(await page.inputValue('#inputs [name="sampleSize"]'), "20");
  assert.equal(await page.locator('#inputs [name="sampleSize"]').getAttribute("type"), "number");
  assert.equal(await page.locator('#inputs textarea[name="tags"]').inputValue(), "{}");
  assert.equal(await page.locator('#inputs textarea[name="removeTags"]').inputValue(), "[]");
  assert.ok(await page.isChecked("#draft-mode"), "draft mode is on by default");
  assert.ok(await vertex("preview.preview").evaluate((n) => n.classList.contains("draft")), "the sampler is a draft vertex");
  assert.ok(!(await vertex("preview.tag").evaluate((n) => n.classList.contains("draft"))));
  assert.equal(await page.locator("#diagram g.edge").count(), 1);
  assert.match(await vertex("preview.preview").locator("text.type").textContent(), /logs-sample/);
  assert.equal(await vertex("preview.preview").locator("text.detail").textContent(), "size: 20");

  // Editing inputs changes the diagram.
  await page.fill('#inputs [name="sampleSize"]', "7");
  await page.waitForFunction(() => document.querySelector('#diagram g[data-name="preview.preview"] text.detail')?.textContent === "size: 7");
  await page.fill('#inputs [name="tags"]', '{"team": "payments", "env": "prod"}');
  await page.waitForFunction(() => document.querySelector('#diagram g[data-name="preview.tag"] text.detail')?.textContent === "transforms: 3 items");
  await page.fill("#user", "ada");
  await page.waitForFunction(() => document.querySelector("#json")?.textContent.includes('"ada"'));

  // Draft mode off: the draft vertex and its edge disappear.
  await page.uncheck("#draft-mode");
  await vertex("preview.preview").waitFor({ state: "detached" });
  await vertex("preview.tag").waitFor();
  assert.equal(await page.locator("#diagram g.vertex.draft").count(), 0);
  assert.equal(await page.locator("#diagram g.edge").count(), 0);

  // And on again.
  await page.check("#draft-mode");
  await vertex("preview.preview").waitFor();

  // Text that is not JSON is caught by the page itself, before resolving.
  await page.fill('#inputs [name="removeTags"]', '["debug"');
  await page.locator('#error[data-code="INVALID_FORM_VALUE"]').waitFor();
  assert.ok(await page.locator('#inputs [name="removeTags"]').evaluate((n) => n.classList.contains("invalid")));
  await page.fill('#inputs [name="removeTags"]', "[]");
  await page.locator("#error").waitFor({ state: "hidden" });

  // An invalid value: the error is shown with its pointer and the field is marked.
  await page.fill('#inputs [name="sampleSize"]', "0");
  const error = page.locator('#error[data-code="INPUT_VALIDATION_FAILED"]');
  await error.waitFor();
  const text = await error.innerText();
  assert.match(text, /Input validation failed/);
  assert.match(text, /\/sampleSize/);
  assert.match(text, /INPUT_VALIDATION_FAILED/);
  assert.match(text, /tag-enrich@1/);
  assert.match(text, /0 is less than the minimum of 1/);
  const field = page.locator('#inputs [name="sampleSize"]');
  assert.ok(await field.evaluate((n) => n.classList.contains("invalid")), "sampleSize is marked invalid");
  assert.equal(await field.getAttribute("aria-invalid"), "true");
  assert.equal(await page.locator("#inputs .invalid").count(), 1, "only the offending field is marked");

  await mkdir(fileURLToPath(new URL("../../target/screenshots/", import.meta.url)), { recursive: true });
  await page.screenshot({ path: SCREENSHOT, fullPage: true });

  assert.deepEqual(problems, []);
});

test("draft preview: hostile scripts typed into the editor, then a good one renders", async () => {
  // A fresh page (the test above left invalid inputs in this one).
  await page.goto("about:blank");
  await page.goto(`${server.url}/examples/draft-preview/#tag-enrich`);
  await vertex("preview.tag").waitFor();
  const original = await page.inputValue("#script");
  assert.match(original, /size: sampleSize/);

  // Each hostile script ends with its limit named; the page stays responsive throughout.
  const hostile = [
    ["while (true) {}", /time limit of 500 ms exceeded/],
    ["let a = []; for (let i = 0; i < 100000; i++) a = [a]; String(a)", /recursion limit of 256 nested calls exceeded/],
    ["!".repeat(100_000) + "1", /nesting limit of 64 levels exceeded/],
    ["let s = 'x'; while (true) s = s + s", /memory limit of \d+ bytes exceeded/],
    ["JSON.stringify(Array.from({length: 1e7}, (_, i) => 'x' + i))", /time limit of 500 ms exceeded/],
  ];
  for (const [script, message] of hostile) {
    await page.fill("#script", script);
    await page.waitForFunction(
      (source) => {
        const error = document.querySelector('#error[data-code="SCRIPT_FAILED"]');
        return error && !error.hidden && new RegExp(source).test(error.textContent);
      },
      message.source,
      { timeout: 15_000 },
    );
    assert.equal(await page.evaluate(() => 1 + 1), 2, "the page answers");
  }

  // A good script: its diagram renders (not the last good one, which had size 20).
  await page.fill("#script", original.replace("size: sampleSize", "size: sampleSize + 1000"));
  await page.waitForFunction(() => document.querySelector('#diagram g[data-name="preview.preview"] text.detail')?.textContent === "size: 1020");
  await page.locator("#error").waitFor({ state: "hidden" });
  assert.ok(!(await page.locator("#canvas").evaluate((n) => n.classList.contains("stale"))), "the diagram is current");
  await vertex("preview.tag").waitFor();

  await mkdir(fileURLToPath(new URL("../../target/screenshots/", import.meta.url)), { recursive: true });
  await page.screenshot({ path: fileURLToPath(new URL("../../target/screenshots/draft-preview-hostile.png", import.meta.url)), fullPage: true });
  assert.deepEqual(problems, []);
});
