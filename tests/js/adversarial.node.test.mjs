// The adversarial corpus (tests/adversarial/cases.json) through the npm package in Node: in-process
// (the module's own functions, in this thread) and through the worker resolver. Every case must
// give the native outcome within 1.5× its time limit (+250 ms), and a trivial call on the same
// API object right after it must succeed, without a reload by hand: no case traps the instance
// or leaves the worker unusable. Writes target/adversarial/npm-{in-process,worker}-node.json for
// docs/sandbox.md (scripts/adversarial-table.mjs). The Chromium run: adversarial.browser.test.mjs.
import { test } from "node:test";
import * as api from "../../pkg/index.node.js";
import { createWorkerResolver } from "../../pkg/worker.node.js";
import { checkAndReport, loadCorpus } from "./adversarial-check.mjs";
import { killMs, runCorpus } from "./adversarial-runner.mjs";

const { cases, scripts } = loadCorpus();

test("adversarial corpus through the npm package in-process (Node)", { timeout: 600_000 }, async () => {
  const generation = api.instanceGeneration();
  const rows = await runCorpus(() => api, cases, scripts);
  checkAndReport(cases, rows, "in-process", "node");
  console.log(`in-process: ${api.instanceGeneration() - generation} instance replacements over ${cases.length} cases`);
});

test("adversarial corpus through the npm package's worker resolver (Node)", { timeout: 600_000 }, async () => {
  // One resolver per kill time (the case's time limit + a quarter), shared by the cases.
  const resolvers = new Map();
  const target = async (c, limits) => {
    const ms = killMs(limits);
    if (!resolvers.has(ms)) resolvers.set(ms, await createWorkerResolver({ timeoutMs: ms }));
    return resolvers.get(ms);
  };
  try {
    const rows = await runCorpus(target, cases, scripts);
    checkAndReport(cases, rows, "worker", "node");
  } finally {
    const replaced = [...resolvers.values()].reduce((n, r) => n + r.replacements(), 0);
    console.log(`worker: ${replaced} worker replacements over ${cases.length} cases`);
    for (const r of resolvers.values()) await r.terminate();
  }
});
