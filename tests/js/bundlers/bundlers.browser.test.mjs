// The package as a web UI's build meets it: `npm pack` of pkg/, installed in a fresh project,
// bundled by Vite, webpack, esbuild and Rollup (tests/js/bundlers/build.mjs), each bundle served
// from loopback and driven in headless Chromium; then the package unbundled from another
// origin, as from a CDN. Every page runs tests/js/bundlers/app/checks.js: `resolve`,
// `createResolver`, `testTemplate`, a trap recovered, the worker resolver stopping
// `while (true) {}` and answering the next call, and `runJob` of a job with a grok parser in the
// page and in the worker (the grok module: each bundle carries each module once). Sizes go to
// target/bundlers/sizes.json.
// Run: node --test tests/js/bundlers/   (needs pkg/wasm built and /usr/bin/chromium)
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { CHROMIUM, startServer } from "../static-server.mjs";
import { BUNDLERS, copyApp, measure } from "./build.mjs";

const repo = fileURLToPath(new URL("../../../", import.meta.url));
const appDir = fileURLToPath(new URL("./app/", import.meta.url));
let work;
let project;
let browser;
const sizes = {};

before(() => {
  work = mkdtempSync(join(tmpdir(), "jobgraph-bundlers-"));
  execFileSync("npm", ["pack", "--silent", "--pack-destination", work], { cwd: join(repo, "pkg") });
  const tarball = readdirSync(work).find((f) => f.endsWith(".tgz"));
  project = join(work, "app");
  copyApp(appDir, project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", "--loglevel=error", join(work, tarball)], { cwd: project });
});

after(async () => {
  await browser?.close();
  if (work) rmSync(work, { recursive: true, force: true });
  mkdirSync(join(repo, "target/bundlers"), { recursive: true });
  writeFileSync(join(repo, "target/bundlers/sizes.json"), JSON.stringify(sizes, null, 2) + "\n");
});

/** Opens `url` in Chromium and waits for the app's outcome; fails on any error the page shows. */
async function drive(url) {
  browser ??= await chromium.launch(CHROMIUM);
  const page = await browser.newPage();
  const problems = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (m) => m.type() === "error" && problems.push(`console error: ${m.text()}`));
  page.on("response", (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
  try {
    await page.goto(url);
    await page.waitForFunction(() => window.__jobgraph !== undefined, null, { timeout: 60_000 }).catch((error) => {
      throw new Error(`the app gave no outcome (${error.message}); the page saw:\n${problems.join("\n")}`);
    });
    const result = await page.evaluate(() => window.__jobgraph);
    assert.ok(result.ok, `the app failed: ${result.error}\n${problems.join("\n")}`);
    return { outcome: result.outcome, problems };
  } finally {
    await page.close();
  }
}

/** What every page must have seen, whatever served it. */
function assertOutcome(outcome) {
  assert.deepEqual(outcome.resolve, { vertices: ["errors.f", "out"], edges: ["errors.f:output -> out"] });
  assert.deepEqual({ hits: outcome.createResolver.hits, misses: outcome.createResolver.misses }, { hits: 1, misses: 1 });
  assert.equal(outcome.testTemplate, "x");
  assert.equal(outcome.invalid.code, "INPUT_VALIDATION_FAILED");
  assert.equal(outcome.trap.code, "WASM_TRAP", JSON.stringify(outcome.trap));
  assert.deepEqual(outcome.afterTrap, { from: { vertex: "a", port: "p" }, to: { vertex: "b" } });
  assert.equal(outcome.spin.code, "TIMEOUT", JSON.stringify(outcome.spin));
  assert.deepEqual(outcome.workerAfterSpin, ["errors.f", "out"]);
  assert.equal(outcome.workerTrap.code, "WASM_TRAP", JSON.stringify(outcome.workerTrap));
  assert.deepEqual(outcome.workerAfterTrap, { from: { vertex: "x" }, to: { vertex: "y" } });
  assert.equal(outcome.replacements, 2);
  assert.deepEqual(outcome.grok, { method: "GET", status: 200 });
  assert.deepEqual(outcome.workerGrok, { method: "GET", status: 200 });
}

/** Which of the package's modules each `.wasm` of a bundle is (by its bytes): "main" or "grok". */
function modulesIn(outDir, files) {
  const shipped = {
    main: readFileSync(join(project, "node_modules/jobgraph/wasm/jobgraph_wasm_bg.wasm")),
    grok: readFileSync(join(project, "node_modules/jobgraph/wasm/jobgraph_grok_wasm_bg.wasm")),
  };
  return files.map((file) => {
    const bytes = readFileSync(join(outDir, file));
    return Object.keys(shipped).find((kind) => shipped[kind].equals(bytes)) ?? `unknown (${file})`;
  });
}

for (const [name, build] of Object.entries(BUNDLERS)) {
  test(`${name}: the packed package bundled, served and driven in Chromium`, async () => {
    const outDir = join(work, `dist-${name}`);
    await build(project, outDir);
    const measured = measure(outDir);
    sizes[name] = measured;
    console.log(
      `${name}: JavaScript ${measured.js.files.length} files, ${(measured.js.gzip / 1024).toFixed(1)} KiB gzip; ` +
        `.wasm ${measured.wasm.files.join(", ")}, ${(measured.wasm.gzip / 1024).toFixed(0)} KiB gzip`,
    );
    // Each module once (the grok one is fetched only by a job with a grok parser).
    assert.deepEqual(modulesIn(outDir, measured.wasm.files).sort(), ["grok", "main"], `the .wasm files of the bundle: ${measured.wasm.files.join(", ")}`);
    assert.deepEqual(measured.inlined, [], "no JavaScript file carries the module inlined");
    const server = await startServer(outDir);
    try {
      const { outcome } = await drive(`${server.url}/index.html`);
      assertOutcome(outcome);
    } finally {
      await server.close();
    }
  });
}

test("unbundled ES modules from another origin (a CDN), the worker included", async () => {
  const cdn = await startServer(join(project, "node_modules/jobgraph"), { headers: { "access-control-allow-origin": "*" } });
  const site = join(work, "site");
  mkdirSync(site, { recursive: true });
  copyFileSync(join(appDir, "checks.js"), join(site, "checks.js"));
  writeFileSync(
    join(site, "index.html"),
    `<!doctype html><html><head><meta charset="utf-8" /></head><body>loading<script type="module">
import * as api from "${cdn.url}/index.js";
import { createWorkerResolver } from "${cdn.url}/worker.js";
import { publish, runChecks } from "./checks.js";
publish(runChecks(api, createWorkerResolver));
</script></body></html>`,
  );
  const app = await startServer(site);
  try {
    assert.notEqual(new URL(app.url).origin, new URL(cdn.url).origin);
    const { outcome } = await drive(`${app.url}/index.html`);
    assertOutcome(outcome);
  } finally {
    await app.close();
    await cdn.close();
  }
});
