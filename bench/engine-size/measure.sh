#!/usr/bin/env bash
# Builds the probe for wasm32 as the npm package is built (profile wasm-release, wasm-bindgen,
# wasm-opt -Oz), prints raw/gzip/brotli sizes, then runs probe.mjs in Node.
#   bash bench/engine-size/measure.sh          # QuickJS + jsonschema + regress + serde_json
#   bash bench/engine-size/measure.sh engine   # QuickJS alone
# Needs clang (Debian: apt-get install clang); rquickjs ships the wasi-libc it links.
set -euo pipefail
cd "$(dirname "$0")"
variant=${1:-schema}
features=()
[ "$variant" = schema ] && features=(--features schema)
cargo build --quiet --target wasm32-unknown-unknown --profile wasm-release "${features[@]}"
out=target/pkg-$variant
wasm-bindgen --target web --out-dir "$out" target/wasm32-unknown-unknown/wasm-release/engine_size.wasm
# rquickjs's libc shim imports one clock function from "env": given by probe.mjs.
sed -i 's#^import \* as import1 from "env"#const import1 = globalThis.__engineSizeEnv;#' "$out/engine_size.js"
../../node_modules/.bin/wasm-opt -Oz --strip-producers --enable-bulk-memory --enable-nontrapping-float-to-int \
  --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
  "$out/engine_size_bg.wasm" -o "$out/engine_size_bg.wasm"
node -e '
const fs = require("fs"), z = require("zlib");
const b = fs.readFileSync(process.argv[1]);
const br = z.brotliCompressSync(b, { params: { [z.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
console.log(`${process.argv[2]}: raw ${b.length} B, gzip -9 ${z.gzipSync(b, { level: 9 }).length} B, brotli q11 ${br} B`);
' "$out/engine_size_bg.wasm" "$variant"
node probe.mjs "$out"
