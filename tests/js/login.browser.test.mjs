// Browser test of people logging in (issue 40): headless Chromium opens the real service's login
// form (`jobgraph serve`, the debug binary, SQLite, a loopback port), a person types a wrong
// password then the right one, and the browser is sent back to a loopback redirect URI (a
// listener of this test, as a command-line client's) with a code that, with its PKCE verifier,
// is exchanged for tokens that call the API as that person.
// Run: node --test tests/js/login.browser.test.mjs
//   (needs /usr/bin/chromium and target/debug/jobgraph: cargo build -p jobgraph-cli)
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { CHROMIUM } from "./static-server.mjs";

const ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "../..");
const BIN = join(ROOT, "target/debug/jobgraph");
const PASSWORD = "a long enough password, typed";

let service;
let dir;
let callback;
let browser;

/** Starts `jobgraph serve` with one user; resolves to `{url, child}` once it is ready. */
async function serve() {
  dir = await mkdtemp(join(tmpdir(), "jobgraph-login-"));
  const config = join(dir, "config.json");
  const settings = { login: { users: [{ name: "carol", organization: "acme", password: PASSWORD, role: "Member", teams: { devops: "Leader" } }] } };
  await writeFile(config, JSON.stringify(settings), { mode: 0o600 });
  const child = spawn(BIN, ["serve", "--addr", "127.0.0.1:0", "--data", join(dir, "data"), "--config", config, "--client", "ci:ci-secret-123:acme"], { stdio: ["ignore", "pipe", "ignore"] });
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

/** A loopback listener standing for the client's redirect URI: resolves each visit's query. */
async function listen() {
  const visits = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url, "http://127.0.0.1");
    // Only the redirect URI (the browser also asks for /favicon.ico).
    if (url.pathname === "/callback") visits.push(url.searchParams);
    response.writeHead(200, { "Content-Type": "text/html" });
    response.end("<!doctype html><title>Logged in</title><p id=done>You may close this window.</p>");
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { server, visits, url: `http://127.0.0.1:${server.address().port}/callback` };
}

before(async () => {
  assert.ok(existsSync(BIN), `${BIN} is missing: cargo build -p jobgraph-cli`);
  service = await serve();
  callback = await listen();
  browser = await chromium.launch(CHROMIUM);
});

after(async () => {
  await browser?.close();
  callback?.server.close();
  service?.child.kill();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test("a person logs in through the form in Chromium and the code, with its verifier, gives tokens that act as them", async () => {
  const verifier = randomBytes(48).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const state = randomBytes(12).toString("base64url");
  const authorize = new URL(`${service.url}/oauth/authorize`);
  for (const [k, v] of Object.entries({
    response_type: "code", client_id: "jobgraph-cli", redirect_uri: callback.url,
    scope: "profile email offline_access", code_challenge: challenge, code_challenge_method: "S256", state,
  })) authorize.searchParams.set(k, v);

  const page = await browser.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("console", (m) => { if (m.type() === "error") problems.push(`console: ${m.text()}`); });
  await page.goto(authorize.href);
  assert.equal(await page.title(), "Log in");

  // A wrong password: the form again, with the error, and no visit to the redirect URI.
  await page.fill("#organization", "acme");
  await page.fill("#username", "carol");
  await page.fill("#password", "not it at all, sorry");
  const [wrong] = await Promise.all([page.waitForNavigation(), page.click("#submit")]);
  assert.equal(wrong.status(), 401);
  assert.match(await page.textContent("#error"), /Wrong organization, user name or password/);
  assert.equal(callback.visits.length, 0);
  // The organization and user name are kept; the password is not.
  assert.equal(await page.inputValue("#username"), "carol");
  assert.equal(await page.inputValue("#password"), "");

  await page.fill("#password", PASSWORD);
  await Promise.all([page.waitForURL((u) => u.href.startsWith(callback.url)), page.click("#submit")]);
  assert.equal(await page.textContent("#done"), "You may close this window.");
  assert.equal(callback.visits.length, 1);
  const back = callback.visits[0];
  assert.equal(back.get("state"), state);
  const code = back.get("code");
  assert.ok(code && code.length >= 40, `a code: ${back}`);
  // Chromium logs the wrong password's 401 as a failed load; nothing else may be logged.
  const unexpected = problems.filter((p) => !p.includes("status of 401"));
  assert.deepEqual(unexpected, [], "the form runs clean (no script, no CSP violation)");

  const exchange = await fetch(`${service.url}/oauth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: callback.url, code_verifier: verifier, client_id: "jobgraph-cli" }),
  });
  const tokens = await exchange.json();
  assert.equal(exchange.status, 200, JSON.stringify(tokens));
  assert.equal(tokens.expires_in, 86400);
  assert.ok(tokens.refresh_token);

  // What the person writes is theirs: a template of the team they lead (an organization
  // Member edits no template of the organization).
  const created = await fetch(`${service.url}/v1/templates`, {
    method: "POST",
    headers: { Authorization: `Bearer ${tokens.access_token}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      name: "by-carol", description: "keeps one level", teamIds: ["devops"],
      inputSchema: { type: "object", properties: { level: { type: "string", default: "error" } } },
      template: "({vertices: [{type: 'logs-filter', name: 'f', query: {type: 'simple-query', query: 'level:' + level + ' by ' + user.getName()}}], edges: []})",
      inputs: { input: "f:input" }, outputs: { output: "f:output" },
    }),
  });
  const template = await created.json();
  assert.equal(created.status, 201, JSON.stringify(template));
  assert.equal(template.editedBy, "carol");
  assert.deepEqual(template.teamIds, ["devops"]);
  await page.close();
});
