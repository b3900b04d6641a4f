// Checks the rows of adversarial-runner.mjs against the corpus's expectations and writes the
// report docs/sandbox.md's table is made from (target/adversarial/npm-<mode>-<host>.json).
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULTS } from "./adversarial-runner.mjs";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const CORPUS = join(ROOT, "tests", "adversarial");

/** The corpus and, per case, its scripts' source texts (set-up scripts first). */
export function loadCorpus() {
  // `inputSchema` and `inputs` may name a JSON file of the corpus (large values).
  const file = (value) => (typeof value === "string" ? JSON.parse(readFileSync(join(CORPUS, value), "utf8")) : value);
  const cases = JSON.parse(readFileSync(join(CORPUS, "cases.json"), "utf8")).map((c) => ({
    ...c,
    ...(c.inputSchema !== undefined ? { inputSchema: file(c.inputSchema) } : {}),
    ...(c.inputs !== undefined ? { inputs: file(c.inputs) } : {}),
  }));
  const scripts = cases.map((c) => (Array.isArray(c.script) ? c.script : [c.script]).map((p) => readFileSync(join(CORPUS, p), "utf8")));
  return { cases, scripts };
}

const WORDS = {
  time: ["time limit of", "timeoutMs"],
  loop: ["loop limit of", "loopIterations"],
  recursion: ["recursion limit of", "recursionDepth"],
  memory: ["memory limit of", "maxMemoryBytes"],
  outputVertices: ["output size limit of", "maxOutputVertices"],
  outputBytes: ["output size limit of", "maxOutputBytes"],
  nesting: ["nesting limit of", "maxNesting"],
};

function unprefixed(graph) {
  const strip = (s) => (s.startsWith("op.") ? s.slice(3) : s);
  return {
    ...graph,
    vertices: graph.vertices.map((v) => ({ ...v, name: strip(v.name) })),
    edges: graph.edges.map((e) => e.split(" -> ").map(strip).join(" -> ")),
  };
}

/** Why an outcome differs from what the case expects (natively), or null. */
function differs(c, limits, outcome) {
  const { expect } = c;
  if (expect.limit) {
    if (outcome.ok) return `expected the ${expect.limit} limit, the script succeeded`;
    const [words, key] = WORDS[expect.limit];
    const wanted = `JavaScript execution failed: ${words} ${limits[key]} `;
    if (!outcome.error.message.startsWith(wanted)) return `expected "${wanted}…", got "${outcome.error.message}"`;
    if (!outcome.error.message.endsWith("(template adv@1, operation op)")) return `no location: ${outcome.error.message}`;
    if (outcome.error.limit?.kind !== expect.limit) return `limit field ${JSON.stringify(outcome.error.limit)}`;
    return null;
  }
  if (expect.error) {
    if (outcome.ok) return `expected ${expect.error}, the script succeeded`;
    if (outcome.error.code !== expect.error) return `expected ${expect.error}, got ${outcome.error.code}: ${outcome.error.message}`;
    if (expect.messageContains && !outcome.error.message.includes(expect.messageContains)) {
      return `message lacks "${expect.messageContains}": ${outcome.error.message}`;
    }
    return null;
  }
  if (!outcome.ok) return `expected output, got ${outcome.error.message}`;
  try {
    assert.deepStrictEqual(unprefixed(outcome.output), expect.output);
    return null;
  } catch {
    return `output differs: ${JSON.stringify(outcome.output).slice(0, 300)}`;
  }
}

function outcomeName(outcome) {
  if (outcome.ok) return "ok";
  if (outcome.error.code === "TIMEOUT") return "worker killed (TIMEOUT)";
  if (outcome.error.limit) return `limit:${outcome.error.limit.kind}`;
  return `error:${outcome.error.code}`;
}

/**
 * Checks every row: the native outcome (a time-limit case may instead be stopped by the
 * worker's kill, `worker` mode only), within 1.5× the time limit + 250 ms, and a trivial call
 * after it that worked. Writes the report for `mode` (`in-process`, `worker`) and `host`
 * (`node`, `chromium`), then fails on any failed row.
 */
export function checkAndReport(cases, rows, mode, host) {
  const report = rows.map((row, i) => {
    const c = cases[i];
    const limits = { ...DEFAULTS, ...(c.limits ?? {}) };
    let detail = differs(c, limits, row.outcome);
    // In the worker, a time-limit case may overrun the in-wasm deadline (a slice of slow
    // built-in calls) and be stopped by the worker's kill instead: a safe stop, recorded.
    if (detail && mode === "worker" && c.expect.limit === "time" && row.outcome.error?.code === "TIMEOUT") detail = null;
    if (!detail && row.ms > limits.timeoutMs * 1.5 + 250) detail = `took ${row.ms.toFixed(0)} ms, more than 1.5× the time limit + 250 ms`;
    if (!detail && row.trivial) detail = `the trivial call after it: ${row.trivial}`;
    return { name: c.name, category: c.category, mode: `npm-${mode}-${host}`, outcome: outcomeName(row.outcome), ms: row.ms, peakBytes: null, pass: !detail, detail: detail ?? "" };
  });
  mkdirSync(join(ROOT, "target", "adversarial"), { recursive: true });
  writeFileSync(join(ROOT, "target", "adversarial", `npm-${mode}-${host}.json`), JSON.stringify(report, null, 2));
  assert.equal(report.length, cases.length);
  const failed = report.filter((r) => !r.pass).map((r) => `${r.name} (${r.outcome}): ${r.detail}`);
  assert.deepEqual(failed, []);
}
