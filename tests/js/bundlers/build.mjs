// Builds the test app (tests/js/bundlers/app) with each bundler, the way its users configure it
// for this package (the same settings as "Use with a bundler" in pkg/README.md), and measures
// what each bundle carries. The bundlers are the repository's pinned dev dependencies; the
// package is the one installed in the app's project from `npm pack`.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";

const MODULE_PAGE = `<!doctype html>
<html><head><meta charset="utf-8" /><title>jobgraph bundled</title></head>
<body>loading<script type="module" src="./main.js"></script></body></html>
`;

/** Vite (`vite build`): the package needs no setting. */
async function vite(project, outDir) {
  const { build } = await import("vite");
  await build({ root: project, configFile: false, logLevel: "warn", build: { outDir, emptyOutDir: true } });
}

/** webpack 5: the package needs no setting (top-level await is on by default since 5.83). */
async function webpack(project, outDir) {
  const { default: webpack } = await import("webpack");
  const config = {
    mode: "production",
    context: project,
    entry: "./main.js",
    output: { path: outDir, filename: "main.js", clean: true },
    performance: { hints: false },
  };
  const stats = await new Promise((resolve, reject) => webpack(config, (error, result) => (error ? reject(error) : resolve(result))));
  if (stats.hasErrors()) throw new Error(stats.toString({ all: false, errors: true }));
  writeFileSync(join(outDir, "index.html"), MODULE_PAGE.replace('type="module" ', "defer "));
}

/**
 * esbuild leaves `new URL("./…", import.meta.url)` as it is (evanw/esbuild#795): the app uses
 * `jobgraph/slim` with the module imported through the `file` loader, and builds the worker's
 * entry as a second entry point named `worker-entry`, beside the app's.
 */
async function esbuild(project, outDir) {
  const { build } = await import("esbuild");
  rmSync(outDir, { recursive: true, force: true });
  await build({
    absWorkingDir: project,
    entryPoints: { main: "./main-slim.js", "worker-entry": "jobgraph/worker-entry" },
    bundle: true,
    format: "esm",
    minify: true,
    outdir: outDir,
    loader: { ".wasm": "file" },
    logLevel: "warning",
  });
  writeFileSync(join(outDir, "index.html"), MODULE_PAGE);
}

/**
 * Rollup 4 with @rollup/plugin-node-resolve (browser conditions) and
 * @web/rollup-plugin-import-meta-assets (emits the `.wasm` behind `new URL(…, import.meta.url)`);
 * Rollup does not bundle workers, so the worker's entry is a second input named `worker-entry`,
 * and the assets plugin leaves `worker-browser.js`'s worker address alone.
 */
async function rollup(project, outDir) {
  const { rollup } = await import("rollup");
  const { nodeResolve } = await import("@rollup/plugin-node-resolve");
  const { importMetaAssets } = await import("@web/rollup-plugin-import-meta-assets");
  rmSync(outDir, { recursive: true, force: true });
  const bundle = await rollup({
    input: { main: join(project, "main.js"), "worker-entry": "jobgraph/worker-entry" },
    plugins: [nodeResolve({ browser: true, rootDir: project }), importMetaAssets({ exclude: "**/jobgraph/worker-browser.js" })],
    onwarn: (warning, warn) => (warning.code === "CIRCULAR_DEPENDENCY" ? undefined : warn(warning)),
  });
  await bundle.write({ dir: outDir, format: "es", entryFileNames: "[name].js" });
  await bundle.close();
  writeFileSync(join(outDir, "index.html"), MODULE_PAGE);
}

/** Every bundler the package is tested with, by name. */
export const BUNDLERS = { vite, webpack, esbuild, rollup };

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/**
 * What a bundle carries: its JavaScript (bytes and gzip), its `.wasm` files (the same), and
 * whether any JavaScript file also holds the module inlined (base64 of the `\0asm` header, or
 * the header itself).
 */
export function measure(outDir) {
  const files = walk(outDir).map((path) => {
    const bytes = readFileSync(path);
    return { file: relative(outDir, path), bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, body: bytes };
  });
  const js = files.filter((f) => /\.m?js$/.test(f.file));
  const wasm = files.filter((f) => f.file.endsWith(".wasm"));
  const inlined = js.filter((f) => f.body.includes("AGFzbQ") || f.body.includes(Buffer.from([0, 0x61, 0x73, 0x6d]))).map((f) => f.file);
  const sum = (list, key) => list.reduce((n, f) => n + f[key], 0);
  return {
    js: { files: js.map((f) => f.file).sort(), bytes: sum(js, "bytes"), gzip: sum(js, "gzip") },
    wasm: { files: wasm.map((f) => f.file).sort(), bytes: sum(wasm, "bytes"), gzip: sum(wasm, "gzip") },
    inlined,
  };
}

/** Copies the test app's sources into `project`. */
export function copyApp(appDir, project) {
  mkdirSync(project, { recursive: true });
  for (const name of readdirSync(appDir)) copyFileSync(join(appDir, name), join(project, name));
}
