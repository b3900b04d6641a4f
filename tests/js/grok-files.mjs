// Loads the grok conformance cases and their native outcomes (Node side).
import { readFile, readdir } from "node:fs/promises";
import { execFileSync } from "node:child_process";

const ROOT = new URL("../../", import.meta.url);

/** Grok case files: `[{file, cases}]`, in file-name order. */
export async function loadGrokFiles() {
  const dir = new URL("tests/conformance/grok/", ROOT);
  const names = (await readdir(dir)).filter((f) => f.endsWith(".json")).sort();
  return Promise.all(names.map(async (file) => ({ file, ...JSON.parse(await readFile(new URL(file, dir), "utf8")) })));
}

/** Native outcomes: $NATIVE_GROK_OUTCOMES when set (CI builds them once), else computed now. */
export async function nativeGrokOutcomes() {
  if (process.env.NATIVE_GROK_OUTCOMES) return JSON.parse(await readFile(process.env.NATIVE_GROK_OUTCOMES, "utf8"));
  const text = execFileSync("cargo", ["run", "-q", "-p", "jobgraph-conformance", "--bin", "conformance-outcomes", "grok"], { cwd: ROOT, maxBuffer: 1 << 28 });
  return JSON.parse(text);
}
