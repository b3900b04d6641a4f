// Parity: every conformance case through the npm package in Node equals the native outcome.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as api from "../../pkg/index.node.js";
import { compare, runAll } from "./conformance-runner.mjs";
import { loadCases, nativeOutcomes } from "./cases.mjs";

test("conformance cases: Node equals native, byte for byte after canonical JSON", async () => {
  const cases = await loadCases();
  const native = await nativeOutcomes();
  assert.ok(cases.length >= 60, `only ${cases.length} cases`);
  assert.equal(Object.keys(native).length, cases.length, "native outcomes and cases differ in number");
  const differences = compare(native, await runAll(api, cases));
  assert.deepEqual(differences, [], differences.join("\n"));
});
