// Parity in a real browser: every query and pipeline conformance case through the package in
// headless Chromium equals the native outcome.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { openPage } from "./browser.mjs";
import { compare } from "./conformance-runner.mjs";
import { loadPipelineCases, loadQueryFiles, nativePipelineOutcomes, packageOutcomes } from "./pipeline-cases.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));

test("Chromium: query and pipeline cases equal native", async (t) => {
  const { page, pageErrors, close } = await openPage(root, { path: "/tests/js/blank.html" });
  t.after(close);
  const native = await nativePipelineOutcomes();
  const files = await loadQueryFiles();
  const cases = await loadPipelineCases();
  const outcomes = await page.evaluate(
    async ({ files, cases }) => {
      const api = await import("/pkg/index.js");
      const runner = await import("/tests/js/pipeline-runner.mjs");
      return { queries: runner.queryOutcomes(api, files), pipelines: await runner.pipelineOutcomes(api, cases) };
    },
    { files, cases },
  );
  const differences = [...compare(native.queries, outcomes.queries), ...compare(packageOutcomes(native.pipelines, cases), outcomes.pipelines)];
  assert.deepEqual(differences, [], differences.join("\n"));
  assert.ok(Object.keys(outcomes.queries).length >= 150);
  assert.deepEqual(pageErrors, []);
});
