// Parity in Node: every grok conformance case through the package gives the native answer, byte
// for byte; parseGrok's errors and limits.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as api from "../../pkg/grok.node.js";
import { compare } from "./conformance-runner.mjs";
import { grokOutcomes } from "./grok-cases.mjs";
import { loadGrokFiles, nativeGrokOutcomes } from "./grok-files.mjs";

test("grok cases: Node equals native, byte for byte", async () => {
  const files = await loadGrokFiles();
  const native = await nativeGrokOutcomes();
  const outcomes = grokOutcomes(api, files);
  assert.ok(Object.keys(outcomes).length >= 190, `only ${Object.keys(outcomes).length} cases`);
  // Datadog's documented examples (tests/conformance/grok/datadog-docs.json) run here too.
  assert.ok(Object.keys(outcomes).filter((k) => k.startsWith("datadog-docs.json#")).length >= 30);
  assert.equal(Object.keys(native).length, Object.keys(outcomes).length);
  const differences = compare(native, outcomes);
  assert.deepEqual(differences, [], differences.join("\n"));
});

test("parseGrok: results, INVALID_GROK_RULE with the rule's place, the time limit per sample", () => {
  const answer = api.parseGrok({
    grokParser: { grokParsingRules: 'login %{word:user} connected on %{date("MM/dd/yyyy"):date} from %{ipv4:ip}' },
    logSamples: ["john connected on 11/08/2017 from 127.0.0.1", "nope"],
  });
  assert.equal(answer.results.length, 2);
  assert.deepEqual(answer.results[0].attributes, { user: "john", date: Date.UTC(2017, 10, 8), ip: "127.0.0.1" });
  assert.equal(answer.results[0].matchingRuleName, "login");
  assert.equal(answer.results[1].match, false);
  assert.throws(
    () => api.parseGrok({ grokParser: { grokParsingRules: "ok %{word:a}\nbad %{nosuch:b}" }, logSamples: ["x"] }),
    (e) => e.code === "INVALID_GROK_RULE" && e.message.startsWith("Invalid grok rule bad at 2:5") && e.line === 2 && e.column === 5 && e.pointer === "/grokParser/grokParsingRules",
  );
  assert.throws(
    () => api.parseGrok({ grokParser: { grokParsingRules: "ok %{h}", grokHelperRules: "h %{word:a" }, logSamples: ["x"] }),
    (e) => e.code === "INVALID_GROK_RULE" && e.line === 1 && e.pointer === "/grokParser/grokHelperRules",
  );
  const hostile = api.parseGrok(
    { grokParser: { grokParsingRules: 'bad %{regex("(a+)+b")}\nword %{word:w}' }, logSamples: ["a".repeat(40), "hello"] },
    { lineTimeLimitMs: 20 },
  );
  assert.equal(hostile.results[0].match, false);
  assert.match(hostile.results[0].error, /^Grok time limit exceeded/);
  assert.equal(hostile.results[1].matchingRuleName, "word");
});

test("parseGrok: rules as arrays (one per item, the public service's shape) equal the same rules as text", () => {
  const samples = ["ann 42", "x=1 y=2"];
  const list = api.parseGrok({ grokParser: { grokParsingRules: ["num %{word:user} %{integer:n}", "kv %{data::keyvalue}"], grokHelperRules: [] }, logSamples: samples }, { text: true });
  const text = api.parseGrok({ grokParser: { grokParsingRules: "num %{word:user} %{integer:n}\nkv %{data::keyvalue}" }, logSamples: samples }, { text: true });
  assert.equal(list, text);
  assert.deepEqual(JSON.parse(list).results.map((r) => r.matchingRuleName), ["num", "kv"]);
  // An error names the array item as a JSON pointer, and the line over all the rules.
  assert.throws(
    () => api.parseGrok({ grokParser: { grokParsingRules: ["ok %{word:a}", "bad %{nosuch:b}"] }, logSamples: ["x"] }),
    (e) => e.code === "INVALID_GROK_RULE" && e.pointer === "/grokParser/grokParsingRules/1" && e.line === 2 && e.column === 5 && e.message.includes("(/grokParsingRules/1)"),
  );
  assert.throws(
    () => api.parseGrok({ grokParser: { grokParsingRules: ["ok %{word:a}", 7] }, logSamples: ["x"] }),
    (e) => e.code === "INVALID_ARGUMENT" && e.message.includes("item 1 is a number"),
  );
});
