// Times `jobgraph resolve` against the Node `vm` resolver next to this file (resolver.mjs), whole
// process each time, on a generated 200-operation job and a 1-operation job (issue 8, point 3).
// Checks first that both produce the same resolved document (parsed JSON, deep-equal).
//
// Usage: node bench/node-vm/compare.mjs [--jobgraph PATH] [--runs N] [-- EXTRA JOBGRAPH FLAGS]
//   --jobgraph  the binary (default target/release/jobgraph; build it with
//               `cargo build --release -p jobgraph-cli`)
//   --runs      timed runs of each command (default 7), interleaved, after one warm-up each
//   --keep      keep the generated job and templates (their folder is printed), for profiling
// The figures are printed, never asserted: the machine may be shared.
import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";

const GOAL = 0.2;
const root = fileURLToPath(new URL("../../", import.meta.url));
const resolver = fileURLToPath(new URL("./resolver.mjs", import.meta.url));

function parseArgs(argv) {
  const args = { jobgraph: join(root, "target/release/jobgraph"), runs: 7, extra: [] };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--") {
      args.extra = argv.slice(i + 1);
      break;
    } else if (argv[i] === "--jobgraph") args.jobgraph = argv[++i];
    else if (argv[i] === "--runs") args.runs = Number(argv[++i]);
    else if (argv[i] === "--keep") args.keep = true;
    else throw new Error(`unknown argument ${argv[i]}; see the header of compare.mjs`);
  }
  if (!(args.runs >= 1)) throw new Error("--runs must be a positive number");
  return args;
}

// The template: 9 vertices built with Array.from/map and template strings, chained by edges;
// the operation's input is the first vertex, its output the last.
const TEMPLATE = {
  id: "chain9",
  version: 1,
  name: "Nine chained filters",
  inputSchema: {
    type: "object",
    properties: {
      prefix: { type: "string", default: "stage" },
      field: { type: "string", default: "service" },
    },
  },
  inputs: { input: "step0:input" },
  outputs: { output: "step8:output" },
};
const SCRIPT = `const steps = Array.from({ length: 9 }, (_, i) => i);
const vertices = steps.map((i) => ({
  type: "logs-filter",
  name: \`step\${i}\`,
  query: { type: "simple-query", query: \`\${field}:\${prefix}-\${i} AND level:\${i % 2 ? "warn" : "error"}\` },
}));
const edges = steps.slice(1).map((i) => \`step\${i - 1}:output -> step\${i}:input\`);
({ vertices, edges })
`;

// A job of `n` operations of the template, chained op0 -> op1 -> … .
function job(n) {
  const vertices = Array.from({ length: n }, (_, i) => ({
    type: "template-operation",
    name: `op${i}`,
    templateId: "chain9",
    templateInputs: { prefix: `op${i}` },
  }));
  const edges = vertices.slice(1).map((_, i) => `op${i} -> op${i + 1}`);
  return { name: `chain-${n}`, execution: "ASYNCHRONOUS", processing: "STREAMING", jobGraph: { vertices, edges } };
}

function generate(dir) {
  const templates = join(dir, "templates");
  mkdirSync(templates);
  writeFileSync(join(templates, "chain9.json"), JSON.stringify(TEMPLATE, null, 2));
  writeFileSync(join(templates, "chain9.js"), SCRIPT);
  const jobs = {};
  for (const n of [200, 1]) {
    jobs[n] = join(dir, `job-${n}.json`);
    writeFileSync(jobs[n], JSON.stringify(job(n), null, 2));
  }
  return { templates, jobs };
}

// Runs a command to completion; returns its wall time in ms and its stdout.
function run([cmd, ...args]) {
  const t0 = performance.now();
  const out = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 1 << 28 });
  const ms = performance.now() - t0;
  if (out.error) throw out.error;
  if (out.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited with ${out.status}:\n${out.stderr}`);
  return { ms, stdout: out.stdout };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => `${ms.toFixed(1)} ms`;

function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(e.message);
    process.exit(2);
  }
  const dir = mkdtempSync(join(tmpdir(), "jobgraph-node-vm-"));
  let keep = Boolean(args.keep);
  if (keep) console.log(`generated job and templates kept in ${dir}`);
  try {
    const { templates, jobs } = generate(dir);
    const commands = {};
    for (const n of [200, 1]) {
      commands[`jobgraph ${n}`] = [args.jobgraph, "resolve", jobs[n], "--templates", templates, ...args.extra];
      commands[`node ${n}`] = [process.execPath, resolver, jobs[n], templates];
    }

    // Warm-up (page cache, V8 code cache), and the check that both agree.
    const first = Object.fromEntries(Object.entries(commands).map(([k, c]) => [k, run(c).stdout]));
    for (const n of [200, 1]) {
      const [a, b] = [JSON.parse(first[`jobgraph ${n}`]), JSON.parse(first[`node ${n}`])];
      if (!isDeepStrictEqual(a, b)) {
        console.error(`MISMATCH on the ${n}-operation job: jobgraph and the Node resolver disagree.`);
        writeFileSync(join(dir, "jobgraph-out.json"), first[`jobgraph ${n}`]);
        writeFileSync(join(dir, "node-out.json"), first[`node ${n}`]);
        console.error(`Both outputs, the job and the templates are kept in ${dir}.`);
        keep = true;
        process.exitCode = 1;
        return;
      }
      const bytes = first[`jobgraph ${n}`] === first[`node ${n}`] ? "byte-identical" : "equal as JSON (bytes differ)";
      console.log(`${n}-operation job: outputs agree (${a.jobGraph.vertices.length} vertices, ${bytes})`);
    }

    const times = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
    for (let r = 0; r < args.runs; r++) {
      for (const [k, c] of Object.entries(commands)) times[k].push(run(c).ms);
    }

    const med = (k) => median(times[k]);
    const min = (k) => Math.min(...times[k]);
    console.log(`\n${args.runs} runs each, interleaved, whole process; jobgraph: ${args.jobgraph} ${args.extra.join(" ")}`);
    console.log("| side | 200 ops median | 200 ops min | 1 op median | 1 op min | per extra op (median) |");
    console.log("|---|---|---|---|---|---|");
    for (const side of ["jobgraph", "node"]) {
      const perOp = ((med(`${side} 200`) - med(`${side} 1`)) / 199) * 1000;
      console.log(
        `| ${side} | ${fmt(med(`${side} 200`))} | ${fmt(min(`${side} 200`))} | ${fmt(med(`${side} 1`))} | ` +
          `${fmt(min(`${side} 1`))} | ${perOp.toFixed(0)} µs |`,
      );
    }
    const ratio = med("jobgraph 200") / med("node 200");
    const ratioMin = min("jobgraph 200") / min("node 200");
    console.log(
      `\nratio jobgraph/node, 200 ops: ${ratio.toFixed(3)} (medians), ${ratioMin.toFixed(3)} (minima); ` +
        `goal ≤ ${GOAL.toFixed(2)}: ${ratio <= GOAL ? "met" : "NOT met"}`,
    );
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

main();
