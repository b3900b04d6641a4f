// `npm pack` of pkg/ gives a package that a fresh project installs and imports in Node.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const pkg = fileURLToPath(new URL("../../pkg/", import.meta.url));

test("npm pack → install in a fresh project → import and resolve", (t) => {
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
const t = { id: "t", version: 1, name: "T", template: "({vertices: [{type: 'x', name: 'v'}], edges: []})" };
const r = await resolve({ vertices: [{ type: "template-operation", name: "op", templateId: "t" }] }, { templates: [t] });
const cached = createResolver();
await cached.resolve({ vertices: [{ type: "template-operation", name: "op", templateId: "t" }] }, { templates: [t] });
const w = await createWorkerResolver();
const e = await w.parseEdge("a->b");
await w.terminate();
console.log(JSON.stringify({ names: r.output.vertices.map((v) => v.name), edge: e, direct: parseEdge("x:p -> y"), misses: cached.stats().misses }));`,
  );
  const out = JSON.parse(execFileSync("node", ["main.js"], { cwd: project, encoding: "utf8" }));
  assert.deepEqual(out.names, ["op.v"]);
  assert.deepEqual(out.edge, { from: { vertex: "a" }, to: { vertex: "b" } });
  assert.deepEqual(out.direct, { from: { vertex: "x", port: "p" }, to: { vertex: "y" } });
  assert.equal(out.misses, 1);
});
