// Prints the docs/sandbox.md table of the adversarial corpus: case × mode → outcome, time, peak
// memory, from the reports the corpus tests write: target/adversarial/{in-process,isolated}.json
// (cargo test -p jobgraph-cli --test adversarial) and npm-{in-process,worker}-{node,chromium}.json
// (node --test tests/js/adversarial.node.test.mjs tests/js/adversarial.browser.test.mjs).
// Usage: node scripts/adversarial-table.mjs > /tmp/table.md
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const read = (name) => {
  const file = join(root, "target", "adversarial", `${name}.json`);
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : [];
};
// A column: one report, or two (Node, Chromium) shown in one cell.
const columns = [
  { title: "in-process", reports: ["in-process"] },
  { title: "isolated (process pool)", reports: ["isolated"] },
  { title: "npm in-process (Node / Chromium)", reports: ["npm-in-process-node", "npm-in-process-chromium"] },
  { title: "npm worker (Node / Chromium)", reports: ["npm-worker-node", "npm-worker-chromium"] },
];
const reports = Object.fromEntries(columns.flatMap((c) => c.reports).map((name) => [name, read(name)]));
const cases = JSON.parse(readFileSync(join(root, "tests", "adversarial", "cases.json"), "utf8"));

const mib = (b) => (b == null ? "" : `${(b / 1048576).toFixed(b < 10485760 ? 1 : 0)} MiB`);
const outcome = (row) => (row.outcome === "skipped" ? "isolated only" : row.outcome.replace(/^limit:/, "").replace(/^error:/, ""));
const fail = (row) => (row.pass ? "" : "**FAIL** ");
const cell = (rows) => {
  const present = rows.filter(Boolean);
  if (present.length === 0) return "–";
  if (rows.length === 1) {
    const [row] = rows;
    if (row.outcome === "skipped") return "isolated only";
    const parts = [outcome(row), `${Math.round(row.ms)} ms`];
    if (row.peakBytes) parts.push(mib(row.peakBytes));
    return fail(row) + parts.join(", ");
  }
  // Node / Chromium: one outcome when both agree, with both times.
  const times = rows.map((r) => (r ? `${Math.round(r.ms)}` : "–")).join(" / ");
  const outcomes = [...new Set(present.map(outcome))];
  const failed = present.some((r) => !r.pass) ? "**FAIL** " : "";
  return `${failed}${outcomes.join(" / ")}, ${times} ms`;
};
const expectText = (e) => e.limit ?? (e.error ? e.error : "output");

console.log(`| case | category | expected | ${columns.map((c) => c.title).join(" | ")} |`);
console.log(`|---|---|---|${columns.map(() => "---").join("|")}|`);
for (const c of cases) {
  const cells = columns.map((col) => cell(col.reports.map((name) => reports[name].find((r) => r.name === c.name))));
  console.log(`| ${c.name} | ${c.category} | ${expectText(c.expect)} | ${cells.join(" | ")} |`);
}
const counts = Object.entries(reports).map(([name, r]) => {
  const run = r.filter((x) => x.outcome !== "skipped");
  return `${name}: ${run.length} run, ${run.filter((x) => x.pass).length} passed`;
});
console.log(`\n${cases.length} cases. ${counts.join("; ")}.`);
