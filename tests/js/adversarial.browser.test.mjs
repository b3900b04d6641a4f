// The adversarial corpus through the npm package in headless Chromium, in one page: in-process
// (the page's own thread) and through the worker resolver (Web Workers). The same checks as
// adversarial.node.test.mjs: the native outcome within 1.5× the time limit (+250 ms), and a
// trivial call on the same API object after every case, which must succeed without a reload by
// hand. Writes target/adversarial/npm-{in-process,worker}-chromium.json.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { openPage } from "./browser.mjs";
import { ROOT, checkAndReport, loadCorpus } from "./adversarial-check.mjs";

const { cases, scripts } = loadCorpus();
let page;
/** Uncaught exceptions of the page. */
let errors;
let close;

before(async () => {
  ({ page, pageErrors: errors, close } = await openPage(ROOT, { path: "/tests/js/blank.html" }));
});

after(async () => {
  await close?.();
});

test("adversarial corpus through the npm package in-process (Chromium)", { timeout: 600_000 }, async () => {
  const { rows, replaced } = await page.evaluate(async ({ cases, scripts }) => {
    const api = await import("/pkg/index.js");
    const { runCorpus } = await import("/tests/js/adversarial-runner.mjs");
    const generation = api.instanceGeneration();
    const rows = await runCorpus(() => api, cases, scripts);
    return { rows, replaced: api.instanceGeneration() - generation };
  }, { cases, scripts });
  console.log(`in-process: ${replaced} instance replacements over ${cases.length} cases`);
  checkAndReport(cases, rows, "in-process", "chromium");
  assert.deepEqual(errors, []);
});

test("adversarial corpus through the npm package's worker resolver (Chromium)", { timeout: 600_000 }, async () => {
  const { rows, replaced } = await page.evaluate(async ({ cases, scripts }) => {
    const { createWorkerResolver } = await import("/pkg/worker.js");
    const { killMs, runCorpus } = await import("/tests/js/adversarial-runner.mjs");
    const resolvers = new Map();
    const target = async (c, limits) => {
      const ms = killMs(limits);
      if (!resolvers.has(ms)) resolvers.set(ms, await createWorkerResolver({ timeoutMs: ms }));
      return resolvers.get(ms);
    };
    try {
      const rows = await runCorpus(target, cases, scripts);
      return { rows, replaced: [...resolvers.values()].reduce((n, r) => n + r.replacements(), 0) };
    } finally {
      for (const r of resolvers.values()) await r.terminate();
    }
  }, { cases, scripts });
  console.log(`worker: ${replaced} worker replacements over ${cases.length} cases`);
  checkAndReport(cases, rows, "worker", "chromium");
  assert.deepEqual(errors, []);
});
