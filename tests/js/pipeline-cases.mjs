// Loads the query and pipeline conformance cases and their native outcomes (Node side).
import { readFile, readdir } from "node:fs/promises";
import { execFileSync } from "node:child_process";

const ROOT = new URL("../../", import.meta.url);

async function jsonFiles(folder) {
  const dir = new URL(folder, ROOT);
  const names = (await readdir(dir)).filter((f) => f.endsWith(".json")).sort();
  return Promise.all(names.map(async (file) => ({ file, ...JSON.parse(await readFile(new URL(file, dir), "utf8")) })));
}

/** Query files: `[{file, events, cases}]`, in file-name order. */
export const loadQueryFiles = () => jsonFiles("tests/conformance/queries/");

/**
 * Case files the package runs differently, by design: none since issue 36 (grok.json's
 * `grok-parser` vertices run in the grok module, which `runJob` loads for them:
 * docs/npm-package.md, "Grok"). The list stays for cases that may need it.
 * @type {string[]}
 */
export const NATIVE_ONLY_FILES = [];

/** Pipeline cases the package runs, in file-name order. */
export async function loadPipelineCases() {
  return (await jsonFiles("tests/conformance/pipelines/")).filter((f) => !NATIVE_ONLY_FILES.includes(f.file)).flatMap((f) => f.cases);
}

/** The native pipeline outcomes of the cases the package runs (`cases`: loadPipelineCases()). */
export function packageOutcomes(pipelines, cases) {
  const names = new Set(cases.map((c) => c.name));
  return Object.fromEntries(Object.entries(pipelines).filter(([name]) => names.has(name)));
}

/** Native outcomes: $NATIVE_PIPELINE_OUTCOMES when set (CI builds them once), else computed now. */
export async function nativePipelineOutcomes() {
  if (process.env.NATIVE_PIPELINE_OUTCOMES) return JSON.parse(await readFile(process.env.NATIVE_PIPELINE_OUTCOMES, "utf8"));
  const text = execFileSync("cargo", ["run", "-q", "-p", "jobgraph-conformance", "--bin", "conformance-outcomes", "pipelines"], { cwd: ROOT, maxBuffer: 1 << 28 });
  return JSON.parse(text);
}
