// Parity in a real browser: every grok conformance case through the package in headless
// Chromium gives the native answer, byte for byte.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { openPage } from "./browser.mjs";
import { compare } from "./conformance-runner.mjs";
import { loadGrokFiles, nativeGrokOutcomes } from "./grok-files.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));

test("Chromium: grok cases equal native", async (t) => {
  const { page, pageErrors, close } = await openPage(root, { path: "/tests/js/blank.html" });
  t.after(close);
  const native = await nativeGrokOutcomes();
  const files = await loadGrokFiles();
  const outcomes = await page.evaluate(async (files) => {
    const api = await import("/pkg/grok.js");
    const runner = await import("/tests/js/grok-cases.mjs");
    return runner.grokOutcomes(api, files);
  }, files);
  assert.ok(Object.keys(outcomes).length >= 190);
  // Datadog's documented examples (tests/conformance/grok/datadog-docs.json) run here too.
  assert.ok(Object.keys(outcomes).filter((k) => k.startsWith("datadog-docs.json#")).length >= 30);
  const differences = compare(native, outcomes);
  assert.deepEqual(differences, [], differences.join("\n"));
  assert.deepEqual(pageErrors, []);
});
