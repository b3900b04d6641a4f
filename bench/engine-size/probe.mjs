// Behaviour and time per call of the probe module in Node: node probe.mjs target/pkg-schema
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

globalThis.__engineSizeEnv = { __rquickjs_host_now_us: () => Date.now() * 1000 };
const dir = resolve(process.argv[2] ?? "target/pkg-schema");
const bytes = readFileSync(`${dir}/engine_size_bg.wasm`);
const module = new WebAssembly.Module(bytes);
let instance = 0;
/** A fresh instance per case, so that a trap in one case does not spoil the next. */
async function fresh() {
  const glue = await import(`${pathToFileURL(`${dir}/engine_size.js`)}?${++instance}`);
  glue.initSync({ module });
  return glue;
}

const schema = JSON.stringify({ type: "object", properties: { q: { type: "string", pattern: "^\\p{L}+$" } } });
const input = JSON.stringify({ q: "abc" });
const cases = {
  "a template": "function template(i){ return {vertices:[{name:'f', q:i.q, n: 0.1+0.2}], edges:[]} }",
  "while (true) {}": "while (true) {}",
  "arrays until the memory limit": "let a = []; for (;;) a.push(new Array(1e5).fill(1))",
  "unbounded recursion": "function f() { f() } f()",
  "100 000 `!`": "!".repeat(100_000) + "1",
  "100 000 `[`": "[".repeat(100_000),
  "JSON.parse of 100 000 nested arrays": "JSON.parse('['.repeat(100000) + ']'.repeat(100000))",
};
for (const [name, script] of Object.entries(cases)) {
  const { run } = await fresh();
  const started = performance.now();
  let outcome;
  try {
    outcome = `result ${run(script, schema, input, 1000, 64 << 20).slice(0, 60)}`;
  } catch (e) {
    // A string is the probe's own error; an Error object is V8's: the instance trapped.
    outcome = typeof e === "string" ? `clean error: ${e.split("\n")[0]}` : `TRAP: ${e.constructor.name}: ${e.message}`;
  }
  console.log(`${name}: ${outcome} (${(performance.now() - started).toFixed(0)} ms)`);
}
const { run } = await fresh();
const script = "function template(i){ const v=[]; for (let k=0;k<5;k++) v.push({name:'f'+k, q:i.q}); return {vertices:v, edges:[]} }";
const plain = JSON.stringify({ type: "object", properties: { q: { type: "string" } } });
for (const [label, n] of [["warm-up", 100], ["measured", 1000]]) {
  const started = performance.now();
  for (let i = 0; i < n; i++) run(script, plain, input, 1000, 64 << 20);
  console.log(`${label}: ${(((performance.now() - started) * 1000) / n).toFixed(0)} µs per call in Node (fresh context; schema compiled each call)`);
}
