// The official JSON Schema Test Suite (draft 2020-12: every required test and the optional
// ECMA-262 regex tests) through the package's `validateInputs`, the input validation of template
// operations: the same files and counts as the native run (tests/json_schema_suite.rs).
// `loadSuite` runs in Node; `runSuite` runs unchanged in Node and in the browser.

/** The suite files: `[{name, groups}]`, required ones first, then the optional regex ones. */
export async function loadSuite() {
  const { readFile, readdir } = await import("node:fs/promises");
  const dir = new URL("../json-schema-test-suite/draft2020-12/", import.meta.url);
  const names = (await readdir(dir)).filter((f) => f.endsWith(".json")).sort();
  names.push("optional/ecmascript-regex.json", "optional/non-bmp-regex.json");
  const files = [];
  for (const name of names) files.push({ name, groups: JSON.parse(await readFile(new URL(name, dir), "utf8")) });
  return files;
}

/** Runs every test: `{required, optional, skipped, failures}` (counts of tests run). */
export function runSuite(api, files) {
  const outcome = { required: 0, optional: 0, skipped: 0, failures: [] };
  for (const { name, groups } of files) {
    for (const group of groups) {
      if (JSON.stringify(group.schema).includes("localhost:1234")) {
        outcome.skipped += group.tests.length;
        continue;
      }
      for (const test of group.tests) {
        outcome[name.startsWith("optional/") ? "optional" : "required"] += 1;
        let valid;
        try {
          valid = api.validateInputs(group.schema, test.data).length === 0;
        } catch (e) {
          outcome.failures.push(`${name} / ${group.description}: ${e.message}`);
          continue;
        }
        if (valid !== test.valid) {
          outcome.failures.push(`${name} / ${group.description} / ${test.description}: expected valid=${test.valid}`);
        }
      }
    }
  }
  return outcome;
}

/** The native run's figures (tests/json_schema_suite.rs). */
export const NATIVE = { required: 1242, optional: 86, skipped: 26 };
