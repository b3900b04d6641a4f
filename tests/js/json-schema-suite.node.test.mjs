// The JSON Schema Test Suite through the npm package in Node: the native results.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as api from "../../pkg/index.node.js";
import { loadSuite, NATIVE, runSuite } from "./json-schema-suite.mjs";

test("JSON Schema Test Suite 2020-12 (required + optional regex) in Node: every test passes", async () => {
  const { failures, ...counts } = runSuite(api, await loadSuite());
  assert.deepEqual(failures, []);
  assert.deepEqual(counts, NATIVE);
});

test("validateInputs: problems with pointers, no default filling, invalid schema refused", () => {
  const schema = {
    type: "object",
    properties: { id: { type: "string", pattern: "^\\p{Lu}\\d{2}$" }, n: { default: 1, type: "integer" } },
    patternProperties: { "^x-(?!internal)": { type: "string" } },
    required: ["id"],
  };
  assert.deepEqual(api.validateInputs(schema, { id: "Ä42", "x-a": "ok", "x-internal": 1 }), []);
  const problems = api.validateInputs(schema, { id: "a42", "x-a": 3 });
  assert.deepEqual(problems.map((p) => p.pointer).sort(), ["/id", "/x-a"]);
  assert.match(problems.find((p) => p.pointer === "/id").message, /does not match/);
  assert.deepEqual(api.validateInputs(undefined, 42), []);
  assert.throws(() => api.validateInputs({ pattern: "(" }, "x"), (e) => e.code === "INVALID_ARGUMENT" && /regex/.test(e.message));
});
