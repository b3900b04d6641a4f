// Browser test of the draft-preview page's live mode: headless Chromium opens a job running on a
// real `jobgraph serve` (the debug binary, SQLite, a loopback port), taps a live sample of its
// events through `GET /v1/jobs/{id}/tap` (cross-origin: the service answers CORS), and runs the
// job's graph on them in the page. Nothing changes on the service.
// Run: node --test tests/js/draft-preview-live.browser.test.mjs
//   (needs pkg/wasm built, /usr/bin/chromium and target/debug/jobgraph: cargo build -p jobgraph-cli)
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { openPage } from "./browser.mjs";

const ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "../..");
const BIN = join(ROOT, "target/debug/jobgraph");

let service;
let dir;
let statics;
let page;
let close;
let problems;

/** Starts `jobgraph serve` on a free port; resolves to `{url, child}` once it is ready. */
async function serve() {
  dir = await mkdtemp(join(tmpdir(), "jobgraph-live-"));
  const config = join(dir, "config.json");
  await writeFile(config, JSON.stringify({ runner: { pollMs: 100, renewMs: 200, checkpointMs: 200, idlePollMs: 100 } }));
  const child = spawn(BIN, ["serve", "--addr", "127.0.0.1:0", "--data", join(dir, "data"), "--config", config, "--client", "live:live-secret:acme"], { stdio: ["ignore", "pipe", "ignore"] });
  const url = await new Promise((ok, fail) => {
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const found = /listening on (http:\/\/\S+)/.exec(out);
      if (found && out.includes("\nready")) ok(found[1]);
    });
    child.on("exit", (code) => fail(new Error(`jobgraph serve exited (${code}): ${out}`)));
  });
  return { url, child };
}

async function call(method, path, token, body, type = "application/json") {
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { "Content-Type": type } : {}) },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  assert.ok(response.ok, `${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

before(async () => {
  assert.ok(existsSync(BIN), `${BIN} is missing: cargo build -p jobgraph-cli`);
  service = await serve();
  ({ server: statics, page, close, problems } = await openPage(ROOT, { viewport: { width: 1600, height: 1000 }, timeout: 30_000 }));
});

after(async () => {
  await close?.();
  service?.child.kill("SIGKILL");
  if (dir) await rm(dir, { recursive: true, force: true });
});

test("live mode: a running job's resolved graph, run on a sample tapped from the service", async () => {
  const { access_token: token } = await call("POST", "/oauth/token", null, { client_id: "live", client_secret: "live-secret", audience: "service", grant_type: "client_credentials" });
  const input = (await call("POST", "/v1/datasets", token, { name: "live-in" })).id;
  const output = (await call("POST", "/v1/datasets", token, { name: "live-out" })).id;
  const job = await call("POST", "/v1/jobs", token, {
    name: "live-errors", execution: "ASYNCHRONOUS", processing: "STREAMING",
    jobGraph: {
      vertices: [
        { type: "logs-iceberg-table-source", name: "in", datasetId: input, processing: "STREAM" },
        { type: "logs-filter", name: "keep", query: { type: "simple-query", query: "level:error" } },
        { type: "logs-iceberg-table-sink", name: "out", datasetId: output },
      ],
      edges: ["in -> keep", "keep -> out"],
    },
  });
  for (let i = 0; i < 200; i++) {
    if ((await call("GET", `/v1/jobs/${job.id}`, token)).state === "RUNNING") break;
    await new Promise((ok) => setTimeout(ok, 50));
  }
  // Events keep arriving while the page taps.
  let round = 0;
  const loading = setInterval(() => {
    const lines = Array.from({ length: 10 }, (_, i) => JSON.stringify({
      id: `live-${round}-${i}`, eventTimestamp: Date.now(), message: `request ${i} served`,
      tags: { level: [i % 2 ? "error" : "info"], service: ["web"] },
    })).join("\n");
    round++;
    call("POST", `/v1/datasets/${input}/load`, token, lines, "application/x-ndjson").catch(() => {});
  }, 200);
  try {
    await page.goto(`${statics.url}/examples/draft-preview/`);
    await page.locator("#diagram g.vertex[data-name]").first().waitFor();
    await page.click("#tab-job");
    await page.locator("#diagram g.vertex[data-name]").first().waitFor();
    await page.fill("#live-url", service.url);
    await page.fill("#live-token", token);
    await page.fill("#live-job", job.id);
    await page.fill("#live-vertex", "keep");
    await page.click("#live-tap");
    await page.waitForFunction(() => document.querySelector("#live-status")?.dataset.state === "done", null, { timeout: 40_000 });
    const status = await page.locator("#live-status").textContent();
    assert.match(status, /^200 live events of live-errors/, status);
    // The job the service runs is open, resolved, and the page ran it on the tapped events.
    assert.equal(await page.inputValue("#job"), `live:${job.id}`);
    const names = await page.locator("#diagram g.vertex").evaluateAll((ns) => ns.map((n) => n.dataset.name));
    assert.deepEqual(names.toSorted(), ["in", "keep", "out"]);
    assert.match(await page.locator("#events-summary").textContent(), /^200 events · live sample of live-errors/);
    const events = await page.locator("#events").inputValue();
    for (const line of events.trim().split("\n")) {
      const event = JSON.parse(line);
      assert.deepEqual(event.tags.level, ["error"], line);
      assert.match(event.id, /^live-/);
    }
    // A bad token is said in the page, from the service's answer.
    await page.fill("#live-token", "not-a-token");
    await page.click("#live-tap");
    await page.waitForFunction(() => document.querySelector("#live-status")?.dataset.state === "failed");
    assert.match(await page.locator("#live-status").textContent(), /^The job did not load: /);
  } finally {
    clearInterval(loading);
  }
  // The 401 of the bad token is the only HTTP error the page saw.
  assert.deepEqual(problems.filter((p) => !p.includes("401") && !/status of 401/.test(p)), []);
});
