// Where the bytes of the npm package's .wasm go, grouped by crate: reads `twiggy top --format
// csv` of the linked module (before wasm-bindgen and wasm-opt, which still has function names)
// and sums the shallow size of every item by the crate its name starts with (for `<A as B>`
// items, the crate of A). Usage (bench/RESULTS.md, "Package size (issue 12)"):
//   twiggy top -n 1000000 --format csv target/wasm32-unknown-unknown/wasm-release/jobgraph_wasm.wasm > top.csv
//   node bench/wasm-bytes.mjs top.csv [before.csv]   # a Markdown table, after [and before]
import { readFileSync } from "node:fs";

const GROUPS = [
  ["boa (engine, parser, AST, GC, strings, interner)", /^boa_/],
  ["regress (boa's RegExp; in this branch also `pattern`)", /^regress$/],
  ["regex, regex-automata, regex-syntax, fancy-regex, aho-corasick, jsonschema-regex", /^(regex|regex_automata|regex_syntax|fancy_regex|aho_corasick|jsonschema_regex)$/],
  ["jsonschema, jsonschema-value, referencing", /^(jsonschema|jsonschema_value|referencing)$/],
  ["other JSON Schema dependencies (data-encoding, fluent-uri, fraction, email_address, uuid, time, num-*)", /^(data_encoding|fluent_uri|fraction|email_address|uuid_simd|uuid|time|num_bigint|num_rational|num_integer|num_traits|num_cmp|num)$/],
  ["serde, serde_json, serde-wasm-bindgen", /^(serde|serde_core|serde_json|serde_wasm_bindgen)$/],
  ["wasm-bindgen, js-sys, talc", /^(wasm_bindgen|wasm_bindgen_futures|js_sys|talc)$/],
  ["jobgraph-core, jobgraph-wasm", /^(jobgraph_core|jobgraph_wasm)$/],
  ["std/core/alloc (generic instantiations: hashbrown, sort, fmt, ...) and the rest", /^/],
];

function crateOf(name) {
  const inner = name.startsWith("<") ? name.slice(1) : name;
  const m = /^(?:&(?:mut )?)?(?:dyn )?([A-Za-z_][A-Za-z0-9_]*)(?:\[[0-9a-f]+\])?::/.exec(inner);
  return m ? m[1] : "";
}

function breakdown(file) {
  const sums = new Map();
  const add = (k, v) => sums.set(k, (sums.get(k) ?? 0) + v);
  const lines = readFileSync(file, "utf8").trim().split("\n").slice(1);
  for (const line of lines) {
    // Name,ShallowSize,ShallowSizePercent,RetainedSize,RetainedSizePercent (names may hold commas)
    const cols = line.split(",");
    const size = Number(cols[cols.length - 4]);
    const name = cols.slice(0, cols.length - 4).join(",").replace(/^"|"$/g, "");
    if (name.includes("function names") || name.startsWith("custom section")) add("names section and wasm-bindgen metadata (not shipped)", size);
    else if (name.startsWith("data segment")) add("data (.rodata: Unicode tables, strings, meta-schemas)", size);
    else {
      const crate = crateOf(name);
      add(GROUPS.find(([, re]) => re.test(crate))[0], size);
    }
    add("total", size);
  }
  return sums;
}

const after = breakdown(process.argv[2]);
const before = process.argv[3] ? breakdown(process.argv[3]) : null;
const fmt = (n) => (n ?? 0).toLocaleString("en").replace(/,/g, " ");
const keys = [...new Set([...(before?.keys() ?? []), ...after.keys()])].filter((k) => k !== "total");
keys.sort((a, b) => (after.get(b) ?? 0) - (after.get(a) ?? 0));
console.log(before ? "| part | before | after |\n|---|---:|---:|" : "| part | bytes |\n|---|---:|");
for (const k of [...keys, "total"]) console.log(`| ${k} | ${before ? `${fmt(before.get(k))} | ` : ""}${fmt(after.get(k))} |`);
