#!/usr/bin/env bash
# Builds the npm package in pkg/: jobgraph-wasm for wasm32, wasm-bindgen (web target), wasm-opt.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== building jobgraph-wasm (wasm32-unknown-unknown, profile wasm-release)" >&2
cargo build -p jobgraph-wasm --target wasm32-unknown-unknown --profile wasm-release --quiet
# --omit-default-module-path: the glue must not name the .wasm itself (a bundler would emit it a
# second time from every chunk that carries the glue, the worker's included); the package passes it.
wasm-bindgen --target web --omit-default-module-path --out-dir pkg/wasm target/wasm32-unknown-unknown/wasm-release/jobgraph_wasm.wasm
# The glue keeps its instance in module variables: wrapped in a function, so that the package
# can replace a trapped instance without re-importing (and leaking) the glue.
node scripts/glue-factory.mjs pkg/wasm/jobgraph_wasm.js pkg/wasm/jobgraph_wasm_factory.js
# Debian's wasm-opt (binaryen 108) emits modules that fail to load: use the npm one.
if [ -x node_modules/.bin/wasm-opt ] && [ "${JOBGRAPH_WASM_OPT:-1}" = 1 ]; then
  # -Oz drops the names and debug sections; --strip-producers drops the toolchain record.
  # (Measured and not kept: --converge, -1.5 KB gzip for a second ~3 min run; -iit, nothing.)
  echo "== wasm-opt -Oz" >&2
  node_modules/.bin/wasm-opt -Oz --strip-producers --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
    pkg/wasm/jobgraph_wasm_bg.wasm -o pkg/wasm/jobgraph_wasm_bg.wasm
fi
ls -l pkg/wasm/jobgraph_wasm_bg.wasm >&2

# The grok engine's own module (`jobgraph/grok`, crate grok-wasm): built in its own cargo run so
# that its feature of jobgraph-core (`grok`) does not reach the main module (features are unified
# within one run). Wrapped like the main glue, so a trapped instance can be replaced.
echo "== building jobgraph-grok-wasm (the jobgraph/grok module)" >&2
cargo build -p jobgraph-grok-wasm --target wasm32-unknown-unknown --profile wasm-release --quiet
wasm-bindgen --target web --omit-default-module-path --out-dir pkg/wasm target/wasm32-unknown-unknown/wasm-release/jobgraph_grok_wasm.wasm
if [ -x node_modules/.bin/wasm-opt ] && [ "${JOBGRAPH_WASM_OPT:-1}" = 1 ]; then
  node_modules/.bin/wasm-opt -Oz --strip-producers --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
    pkg/wasm/jobgraph_grok_wasm_bg.wasm -o pkg/wasm/jobgraph_grok_wasm_bg.wasm
fi
node scripts/glue-factory.mjs pkg/wasm/jobgraph_grok_wasm.js pkg/wasm/jobgraph_grok_wasm_factory.js
ls -l pkg/wasm/jobgraph_grok_wasm_bg.wasm >&2
