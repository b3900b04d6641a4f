// Browser test of the grok mode of examples/draft-preview: headless Chromium against a loopback
// static server. Opens the grok tab on its example rules and samples, checks what each sample
// extracted (values worked out here from the lines, not from the engine), breaks a rule (the
// error names its line and column and the caret jumps there), fixes it, feeds a catastrophic
// rule (the page stays responsive: the sample reports the time limit), and measures
// keystroke-to-results time (printed, not asserted). Saves a screenshot.
// Run: node --test tests/js/grok-panel.browser.test.mjs   (needs pkg/wasm built and /usr/bin/chromium)
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { openPage } from "./browser.mjs";

const ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "../..");
const SCREENSHOT = fileURLToPath(new URL("../../target/screenshots/grok-panel.png", import.meta.url));

let server;
let page;
let problems;
let close;

before(async () => {
  ({ server, page, problems, close } = await openPage(ROOT, { viewport: { width: 1600, height: 1100 }, timeout: 15_000 }));
});

after(async () => {
  await close?.();
});

const samples = () => page.locator("#grok-results li.grok-sample");
/** What the page shows for sample `i`: match, rule, and the JSON of each field block. */
async function shown(i) {
  const item = samples().nth(i);
  const fields = {};
  for (const block of await item.locator(".grok-field").all()) {
    fields[await block.locator(".grok-field-name").textContent()] = JSON.parse(await block.locator("pre").textContent());
  }
  return {
    match: (await item.getAttribute("data-match")) === "true",
    rule: (await item.locator(".grok-rule").count()) ? await item.locator(".grok-rule").textContent() : null,
    fields,
    error: (await item.locator(".field-error").count()) ? await item.locator(".field-error").textContent() : null,
  };
}

/** Waits until the summary says `matched` of `total`. */
async function summaryIs(matched, total) {
  await page.waitForFunction(([m, t]) => document.querySelector("#grok-summary")?.textContent.startsWith(`Matched ${m} of ${t} samples`), [matched, total]);
}

test("grok panel: results per sample, rule errors with their column, hostile rules bounded", async () => {
  await page.goto(`${server.url}/examples/draft-preview/#grok`);
  await summaryIs(3, 4);
  assert.equal(await page.locator("#tab-grok").getAttribute("aria-selected"), "true");
  assert.equal(await samples().count(), 4);
  assert.ok(!(await page.locator("#diagram").isVisible()), "the diagram is hidden in grok mode");

  // The access log line: every field as the line says, the time in UTC milliseconds.
  const access = await shown(0);
  assert.equal(access.match, true);
  assert.equal(access.rule, "access");
  const attributes = access.fields.attributes;
  assert.equal(attributes.network.client.ip, "127.0.0.1");
  assert.equal(attributes.http.method, "GET");
  assert.equal(attributes.http.url, "/apache_pb.gif");
  assert.equal(attributes.http.status_code, 200);
  assert.equal(attributes.network.bytes_written, 2326);
  // 10/Oct/2000:13:55:36 -0700 is 20:55:36 UTC.
  assert.equal(access.fields["top-level fields"].eventTimestamp, Date.UTC(2000, 9, 10, 20, 55, 36));

  // The login line: a helper rule's extractor, a date without a zone (UTC).
  const login = await shown(1);
  assert.equal(login.rule, "login");
  assert.equal(login.fields.attributes.user.name, "john");
  assert.equal(login.fields.attributes.date, Date.UTC(2017, 10, 8));
  assert.equal(login.fields.attributes.network.client.ip, "192.168.1.10");
  // A tag, lowercased.
  const level = await shown(2);
  assert.equal(level.rule, "level");
  assert.deepEqual(level.fields.tags, { level: ["error"] });
  assert.equal(level.fields.attributes.msg, "disk full on /var");
  const none = await shown(3);
  assert.equal(none.match, false);
  assert.equal(none.rule, null);

  // A rule that does not compile: the error names the rule, line and column; the results stay,
  // dimmed; the button puts the caret on the column.
  const rules = page.locator("#grok-rules");
  const good = await rules.inputValue();
  await rules.fill(`${good}\nbroken %{nosuchmatcher:x}`);
  const error = page.locator("#grok-rules-error");
  await error.waitFor();
  const message = await error.locator("span").textContent();
  assert.match(message, /broken/);
  const where = /at 4:(\d+)/.exec(message);
  assert.ok(where, message);
  assert.equal(await rules.getAttribute("aria-invalid"), "true");
  assert.ok(await page.locator("#grok-results").evaluate((n) => n.classList.contains("stale")));
  await error.locator("button").click();
  const caret = await rules.evaluate((n) => n.selectionStart);
  const lines = (await rules.inputValue()).split("\n");
  assert.equal(caret, lines.slice(0, 3).join("\n").length + 1 + Number(where[1]) - 1);

  // Fixed, and a fourth rule for the last line: every sample matches.
  await rules.fill(`${good}\nrest %{data:rest}`);
  await summaryIs(4, 4);
  assert.ok(await error.isHidden());
  assert.equal((await shown(3)).rule, "rest");
  assert.equal((await shown(3)).fields.attributes.rest, "-- no rule matches this line");

  // Catastrophic backtracking: the sample reports the time limit; the others still parse.
  await page.locator("#grok-samples").fill(`${"a".repeat(40)}\nERROR still parsed`);
  await rules.fill(`bad %{regex("(a+)+b")}\n${good}`);
  await summaryIs(1, 2);
  const stopped = await shown(0);
  assert.equal(stopped.match, false);
  assert.match(stopped.error ?? "", /time limit/i);
  assert.equal((await shown(1)).rule, "level");

  // Keystroke to results, over the example (printed, not asserted).
  await page.click("#grok-example");
  await summaryIs(3, 4);
  const times = [];
  for (let i = 0; i < 15; i++) {
    const before = await page.evaluate(() => performance.now());
    await page.locator("#grok-samples").press("End");
    await page.locator("#grok-samples").type(i % 2 ? "x" : "y");
    await page.waitForFunction((t) => Number(document.querySelector("#grok-results").dataset.ms) >= 0 && performance.now() > t, before);
    times.push(Number(await page.locator("#grok-results").getAttribute("data-ms")));
  }
  times.sort((a, b) => a - b);
  console.log(`grok panel: parseGrok over 4 samples, median ${times[7].toFixed(2)} ms, max ${times.at(-1).toFixed(2)} ms`);

  await page.click("#grok-example");
  await summaryIs(3, 4);
  await mkdir(resolve(SCREENSHOT, ".."), { recursive: true });
  await page.screenshot({ path: SCREENSHOT, fullPage: true });
  assert.deepEqual(problems, []);
});
