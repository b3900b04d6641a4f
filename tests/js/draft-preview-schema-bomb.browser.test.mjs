// Browser test of examples/draft-preview with a template whose inputSchema has a vulnerable
// pattern (examples/templates/alert-route.json: `label` is `^(\w+\s?)*$`, "words separated by
// single spaces", the classic ReDoS shape). A label that almost matches used to freeze the tab
// on the first keystroke in job mode (in-process resolution); now the match stops at the call's
// `timeoutMs` (the page passes 500 ms) and the page shows the validation error, then a good
// label renders. Keystroke-to-error times are printed.
// Run: node --test tests/js/draft-preview-schema-bomb.browser.test.mjs   (needs pkg/wasm built and /usr/bin/chromium)
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { openPage } from "./browser.mjs";

const ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "../..");
const SCREENSHOT = fileURLToPath(new URL("../../target/screenshots/draft-preview-schema-bomb.png", import.meta.url));

/** The page's `limits.timeoutMs` (app.js, job-mode.js): the budget of a pattern match. */
const BUDGET_MS = 500;
/** Keystroke to error shown: the budget and a half, plus a margin for the browser. */
const BOUND_MS = 1.5 * BUDGET_MS + 400;
/** Template mode waits 120 ms after a keystroke before it resolves (in its worker). */
const DEBOUNCE_MS = 120;
const PREFIX = "aaaa ".repeat(14);
/** 14 words and a `!`: ~8^14 ways for `(\w+\s?)*` to split them before the match fails. */
const BOMB = PREFIX + "!";
const LIMIT = new RegExp(`/label: pattern matching exceeded the time limit of ${BUDGET_MS} ms \\(schema /properties/label/pattern; raise \`timeoutMs\``);

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
const hasClass = (locator, name) => locator.evaluate((n, c) => n.classList.contains(c), name);
const detailIs = (name, text) =>
  page.waitForFunction(([n, t]) => document.querySelector(`#diagram g[data-name="${n}"] text.detail`)?.textContent === t, [name, text]);

/**
 * Stamps, in the page, the last input event (`event.timeStamp`, the time base of
 * `performance.now()`) and the moment `#error` first shows the pattern limit (a mutation
 * observer: right after the DOM change, not at the next poll), and records long tasks.
 */
function watch() {
  return page.evaluate(() => {
    const record = (window.__bomb = { inputAt: null, errorAt: null, longTasks: [] });
    window.__bombObservers?.forEach((o) => o.disconnect());
    document.addEventListener("input", (event) => void (record.inputAt = event.timeStamp), { capture: true });
    const error = document.querySelector("#error");
    const mutations = new MutationObserver(() => {
      if (record.errorAt === null && !error.hidden && /pattern matching exceeded/.test(error.textContent)) record.errorAt = performance.now();
    });
    mutations.observe(error, { childList: true, subtree: true, attributes: true, characterData: true });
    const tasks = new PerformanceObserver((list) => record.longTasks.push(...list.getEntries().map((e) => e.duration)));
    tasks.observe({ type: "longtask" });
    window.__bombObservers = [mutations, tasks];
  });
}

/** Waits for the limit error; returns `{inPage, wall, longest}` in ms. */
async function limitError(startedAt) {
  await page.waitForFunction(() => window.__bomb.errorAt !== null, null, { timeout: 15_000 });
  const wall = performance.now() - startedAt;
  // The page answers at once after the error (a frozen tab would not).
  const pingAt = performance.now();
  assert.equal(await page.evaluate(() => 1 + 1), 2);
  const ping = performance.now() - pingAt;
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
  const { inputAt, errorAt, longTasks } = await page.evaluate(() => window.__bomb);
  return { inPage: errorAt - inputAt, wall, ping, longest: Math.max(0, ...longTasks) };
}

const fmt = (t) => `${t.inPage.toFixed(0)} ms in the page (input event to error shown), ${t.wall.toFixed(0)} ms from the test, longest task ${t.longest.toFixed(0)} ms, then the page answered in ${t.ping.toFixed(0)} ms`;

test("job mode: a ReDoS label stops at the time limit, then a good label renders", async () => {
  await page.goto(`${server.url}/examples/draft-preview/#job=checkout-alerts`);
  await detailIs("alert.page", "label: checkout errors");
  assert.equal(await page.inputValue("#job"), "checkout-alerts");
  assert.deepEqual(await page.locator("#operations button.op").evaluateAll((ns) => ns.map((n) => n.dataset.op)), ["ingest", "errors", "alert"]);

  await page.click('#operations button.op[data-op="alert"]');
  const label = page.locator('#op-inputs [name="label"]');
  assert.equal(await label.inputValue(), "checkout errors");

  // Words and spaces: every prefix matches at once (greedy), the diagram follows.
  await label.fill(PREFIX);
  await page.waitForFunction((text) => document.querySelector("#json")?.textContent.includes(text), JSON.stringify(PREFIX));
  assert.ok(await page.locator("#error").isHidden());

  // The `!` that makes the match fail: catastrophic backtracking, stopped at the budget.
  await watch();
  await label.press("End");
  const startedAt = performance.now();
  await page.keyboard.type("!");
  const t = await limitError(startedAt);
  console.log(`job mode (in-process), ReDoS label: ${fmt(t)}`);
  assert.ok(t.inPage < BOUND_MS, `the error within ${BOUND_MS} ms of the keystroke (${t.inPage.toFixed(0)} ms)`);
  assert.ok(t.inPage >= BUDGET_MS * 0.9, `the match ran for its budget (${t.inPage.toFixed(0)} ms)`);
  assert.ok(t.longest < BOUND_MS, `no task blocked the page longer than ${BOUND_MS} ms (${t.longest.toFixed(0)} ms)`);
  assert.equal(await label.inputValue(), BOMB);

  const error = page.locator("#error");
  assert.equal(await error.getAttribute("data-code"), "INPUT_VALIDATION_FAILED");
  const text = await error.innerText();
  assert.match(text, /Input validation failed/);
  assert.match(text, LIMIT);
  assert.match(text, /alert-route@1/);
  assert.ok(await hasClass(label, "invalid"), "the label field is marked");
  assert.match(await page.locator("#op-input-label-error").textContent(), /pattern matching exceeded the time limit/);
  assert.ok(await hasClass(page.locator('#operations button.op[data-op="alert"]'), "failed"));
  assert.ok(await page.locator("#canvas.stale").isVisible(), "the last good diagram stays, dimmed");

  // A good label: the whole job resolves again and the diagram shows it.
  await label.fill("checkout down");
  await detailIs("alert.page", "label: checkout down");
  await error.waitFor({ state: "hidden" });
  assert.ok(!(await page.locator("#canvas").evaluate((n) => n.classList.contains("stale"))), "the diagram is current");
  assert.equal(await page.locator("#op-inputs .invalid").count(), 0);
  const names = await page.locator("#diagram g.vertex").evaluateAll((ns) => ns.map((n) => n.dataset.name));
  assert.deepEqual(names.toSorted(), ["alert.page", "alert.title", "errors.filter", "ingest.source"]);
  assert.equal(await page.locator("#diagram g.edge").count(), 3);
  assert.equal(await page.getAttribute('#diagram g.vertex[data-name="alert.page"]', "data-operation"), "alert");
  assert.match(await page.locator("#json").textContent(), /"values": \[\s*"checkout down"\s*\]/);
  assert.match(await page.locator("#status").textContent(), /4 vertices, 3 edges/);

  await mkdir(fileURLToPath(new URL("../../target/screenshots/", import.meta.url)), { recursive: true });
  await page.screenshot({ path: SCREENSHOT, fullPage: true });
  assert.deepEqual(problems, []);
});

test("template mode: the same label settles in the worker with the same error, not a worker kill", async () => {
  await page.goto("about:blank");
  await page.goto(`${server.url}/examples/draft-preview/#alert-route`);
  await detailIs("preview.page", "label: checkout errors");
  const label = page.locator('#inputs [name="label"]');

  await watch();
  const startedAt = performance.now();
  await label.fill(BOMB);
  const t = await limitError(startedAt);
  console.log(`template mode (worker, ${DEBOUNCE_MS} ms debounce), ReDoS label: ${fmt(t)}`);
  assert.ok(t.inPage < DEBOUNCE_MS + BOUND_MS, `the error within ${DEBOUNCE_MS + BOUND_MS} ms of the keystroke (${t.inPage.toFixed(0)} ms)`);
  assert.ok(t.longest < 200, `the page's thread is never blocked: the match runs in the worker (longest task ${t.longest.toFixed(0)} ms)`);
  const error = page.locator("#error");
  assert.equal(await error.getAttribute("data-code"), "INPUT_VALIDATION_FAILED", "a validation error, not the worker's TIMEOUT");
  const text = await error.innerText();
  assert.match(text, LIMIT);
  assert.doesNotMatch(text, /worker was terminated/);
  assert.ok(await hasClass(label, "invalid"));

  await label.fill("checkout down");
  await detailIs("preview.page", "label: checkout down");
  await error.waitFor({ state: "hidden" });
  const names = await page.locator("#diagram g.vertex").evaluateAll((ns) => ns.map((n) => n.dataset.name));
  assert.deepEqual(names.toSorted(), ["preview.page", "preview.title"]);
  assert.deepEqual(problems, []);
});
