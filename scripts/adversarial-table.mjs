// Prints the docs/sandbox.md table of the adversarial corpus: case × mode → outcome, time, peak
// memory, from the reports the corpus tests write (target/adversarial/{in-process,isolated,npm}.json).
// Usage: node scripts/adversarial-table.mjs > /tmp/table.md
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const modes = ["in-process", "isolated", "npm"];
const reports = Object.fromEntries(
  modes.map((m) => {
    const file = join(root, "target", "adversarial", `${m}.json`);
    return [m, existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : []];
  }),
);
const cases = JSON.parse(readFileSync(join(root, "tests", "adversarial", "cases.json"), "utf8"));

const mib = (b) => (b == null ? "" : `${(b / 1048576).toFixed(b < 10485760 ? 1 : 0)} MiB`);
const cell = (row) => {
  if (!row) return "–";
  if (row.outcome === "skipped") return "isolated only";
  const outcome = row.outcome.replace(/^limit:/, "").replace(/^error:/, "");
  const parts = [outcome, `${Math.round(row.ms)} ms`];
  if (row.peakBytes) parts.push(mib(row.peakBytes));
  return (row.pass ? "" : "**FAIL** ") + parts.join(", ");
};
const expectText = (e) => e.limit ?? (e.error ? e.error : "output");

console.log("| case | category | expected | in-process | isolated (process pool) | npm (Node, worker) |");
console.log("|---|---|---|---|---|---|");
for (const c of cases) {
  const rows = modes.map((m) => reports[m].find((r) => r.name === c.name));
  console.log(`| ${c.name} | ${c.category} | ${expectText(c.expect)} | ${rows.map(cell).join(" | ")} |`);
}
const counts = modes.map((m) => {
  const r = reports[m];
  const run = r.filter((x) => x.outcome !== "skipped");
  return `${m}: ${run.length} run, ${run.filter((x) => x.pass).length} passed, ${r.length - run.length} isolated only`;
});
console.log(`\n${cases.length} cases. ${counts.join("; ")}.`);
