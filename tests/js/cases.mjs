// Loads the conformance cases and the native outcomes (Node side).
import { readFile, readdir } from "node:fs/promises";
import { execFileSync } from "node:child_process";

export const ROOT = new URL("../../", import.meta.url);

export async function loadCases() {
  const dir = new URL("tests/conformance/cases/", ROOT);
  const files = (await readdir(dir)).filter((f) => f.endsWith(".json")).sort();
  const cases = [];
  for (const file of files) cases.push(...JSON.parse(await readFile(new URL(file, dir), "utf8")));
  return cases;
}

/** The native outcomes: from $NATIVE_OUTCOMES when set (CI builds them once), else computed now. */
export async function nativeOutcomes() {
  if (process.env.NATIVE_OUTCOMES) return JSON.parse(await readFile(process.env.NATIVE_OUTCOMES, "utf8"));
  const text = execFileSync("cargo", ["run", "-q", "-p", "jobgraph-conformance", "--bin", "conformance-outcomes"], {
    cwd: ROOT,
    maxBuffer: 1 << 28,
  });
  return JSON.parse(text);
}
