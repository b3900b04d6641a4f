// Parity in a real browser: every conformance case through the npm package in headless Chromium
// equals the native outcome; the worker-backed resolver stops a script that never ends.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { openPage } from "./browser.mjs";
import { compare } from "./conformance-runner.mjs";
import { loadCases, nativeOutcomes } from "./cases.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));

test("Chromium: conformance parity and worker timeout", async (t) => {
  const { page, pageErrors: errors, close } = await openPage(root, { path: "/tests/js/blank.html" });
  t.after(close);

  const cases = await loadCases();
  const native = await nativeOutcomes();
  const outcomes = await page.evaluate(async (cases) => {
    const api = await import("/pkg/index.js");
    const runner = await import("/tests/js/conformance-runner.mjs");
    return runner.runAll(api, cases);
  }, cases);
  const differences = compare(native, outcomes);
  assert.deepEqual(differences, [], differences.join("\n"));

  const worker = await page.evaluate(async () => {
    const { createWorkerResolver } = await import("/pkg/worker.js");
    const resolver = await createWorkerResolver({ timeoutMs: 1500 });
    const started = performance.now();
    let timeout;
    try {
      await resolver.testTemplate({ name: "spin", template: "while (true) {}" }, {}, { limits: { timeoutMs: 600000, loopIterations: 1e15 } });
    } catch (e) {
      timeout = { code: e.code, message: e.message, name: e.name };
    }
    const elapsed = performance.now() - started;
    const after = await resolver.parseEdge("a->b");
    await resolver.terminate();
    return { timeout, elapsed, after };
  });
  assert.equal(worker.timeout?.code, "TIMEOUT");
  assert.match(worker.timeout.message, /^JavaScript execution failed: time limit of 1500 ms exceeded/);
  assert.ok(worker.elapsed < 1500 * 1.5 + 500, `stopped after ${worker.elapsed} ms`);
  assert.deepEqual(worker.after, { from: { vertex: "a" }, to: { vertex: "b" } });
  assert.deepEqual(errors, []);
});
