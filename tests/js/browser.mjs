// Headless Chromium on a page served from loopback, shared by the browser tests: one static
// server and one browser per test file, and a record of everything that goes wrong in the page.
import { chromium } from "playwright-core";
import { CHROMIUM, startServer } from "./static-server.mjs";

/**
 * Serves `root` on a free loopback port, launches Chromium and opens a page (on `path` when
 * given). Resolves to `{server, browser, page, pageErrors, problems, close}`:
 * - `pageErrors`: uncaught exceptions of the page, as text;
 * - `problems`: those, console errors, failed requests and HTTP errors (status ≥ 400), each
 *   with its kind: a page that must stay clean asserts this list empty;
 * - `close()`: closes the browser and stops the server, printing any problems first.
 *
 * @param {string} root folder to serve (the repository root)
 * @param {{viewport?: {width: number, height: number}, timeout?: number, path?: string}} [options]
 */
export async function openPage(root, { viewport, timeout, path } = {}) {
  const server = await startServer(root);
  const browser = await chromium.launch(CHROMIUM);
  const page = await browser.newPage(viewport ? { viewport } : {});
  const pageErrors = [];
  const problems = [];
  page.on("pageerror", (error) => {
    pageErrors.push(String(error));
    problems.push(`page error: ${error.message}`);
  });
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  page.on("requestfailed", (request) => problems.push(`request failed: ${request.url()}`));
  page.on("response", (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  if (timeout) page.setDefaultTimeout(timeout);
  if (path) await page.goto(`${server.url}${path}`);
  const close = async () => {
    if (problems.length) console.error("Errors seen in the page:\n" + problems.join("\n"));
    await browser.close();
    await server.close();
  };
  return { server, browser, page, pageErrors, problems, close };
}
