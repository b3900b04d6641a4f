// The JSON Schema Test Suite through the npm package in headless Chromium: the native results.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { openPage } from "./browser.mjs";
import { loadSuite, NATIVE } from "./json-schema-suite.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));

test("Chromium: JSON Schema Test Suite 2020-12 (required + optional regex), every test passes", async (t) => {
  const { page, pageErrors: errors, close } = await openPage(root, { path: "/tests/js/blank.html" });
  t.after(close);
  // As JSON text: structured cloning would drop own `__proto__` keys, which the suite tests.
  const { failures, ...counts } = await page.evaluate(async (text) => {
    const api = await import("/pkg/index.js");
    const { runSuite } = await import("/tests/js/json-schema-suite.mjs");
    return runSuite(api, JSON.parse(text));
  }, JSON.stringify(await loadSuite()));
  assert.deepEqual(failures, []);
  assert.deepEqual(counts, NATIVE);
  assert.deepEqual(errors, []);
});
