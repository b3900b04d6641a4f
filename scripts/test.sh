#!/usr/bin/env bash
# Runs every check and test of the project:
#   Rust: format, lints, API docs (warnings denied), unit + conformance + JSON Schema suite + CLI + doc tests, wasm32 check;
#   the OpenAPI document through openapi-spec-validator and generated Python and TypeScript clients,
#   and Schemathesis against the real service for 60 s;
#   npm package: build, size budget of the .wasm, its .d.ts against its JavaScript, conformance parity and the JSON Schema Test
#   Suite in Node and in headless Chromium, worker and trap recovery, the draft-preview page,
#   the packed package in Node 20 and 22 (ESM and require) and bundled by Vite, webpack, esbuild
#   and Rollup (tests/js/bundlers/).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh

echo "== README command 1, as written there (the binary without the service: it must keep building and resolving)" >&2
readme_command="$(grep -m1 '^cargo run ' README.md)"
case "$readme_command" in
  *--no-default-features*) ;;
  *) echo "README command 1 builds the whole service: keep --no-default-features (docs/plans/first-command-build-time.md)" >&2; exit 1 ;;
esac
mkdir -p target
eval "$readme_command" > target/readme-command-1.json
grep -q '"vertices"' target/readme-command-1.json

echo "== cargo fmt --check" >&2
cargo fmt --all -- --check
echo "== no import circles between modules (scripts/check-module-cycles.py)" >&2
python3 scripts/check-module-cycles.py model/src core/src sdk/src server/src cli/src wasm/src lake/src docsindex/src intake/src
echo "== cargo clippy" >&2
cargo clippy --workspace --all-targets --quiet -- -D warnings
echo "== cargo doc (public items documented, links resolve)" >&2
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --quiet -p jobgraph-model -p jobgraph-core -p jobgraph-sdk -p jobgraph-server -p jobgraph-cli -p jobgraph-lake -p jobgraph-docsindex -p jobgraph-intake
echo "== cargo test (unit, conformance, JSON Schema suite, CLI, service on SQLite, doctests)" >&2
cargo test --workspace --exclude jobgraph-wasm
echo "== sandbox workers taken over (test-only attack hooks)" >&2
cargo test -q -p jobgraph-sdk --features attack-hooks --test attacks

# The service's suites again on PostgreSQL, and two replicas on one database (a throwaway
# cluster on a loopback port; the binaries are those just built).
PG_DIR="$(mktemp -d)"
trap 'bash scripts/pg-cluster.sh down "$PG_DIR" || true' EXIT
if PG_URL="$(bash scripts/pg-cluster.sh start "$PG_DIR" 2> target/pg-cluster.err)"; then
  echo "== service suites on PostgreSQL, two replicas on one database" >&2
  JOBGRAPH_TEST_DATABASE_URL="$PG_URL" JOBGRAPH_TEST_PG_CLUSTER="$PG_DIR" \
    cargo test -q -p jobgraph-cli --test serve_api --test serve_durability --test serve_limits \
      --test client --test cli_online --test serve_replicas --test serve_lake --test serve_datasets
  JOBGRAPH_TEST_DATABASE_URL="$PG_URL" cargo test -q --workspace --exclude jobgraph-wasm --test lake_store --test api
  bash scripts/pg-cluster.sh down "$PG_DIR"
else
  echo "!! SKIPPED the PostgreSQL suites: the cluster did not start: $(cat target/pg-cluster.err)" >&2
fi
echo "== cargo check jobgraph-core for wasm32-unknown-unknown" >&2
cargo check -p jobgraph-core --target wasm32-unknown-unknown --quiet

echo "== building the npm package (pkg/)" >&2
bash scripts/build-pkg.sh
echo "== size of the shipped .wasm (budget: scripts/check-wasm-size.mjs)" >&2
node scripts/check-wasm-size.mjs
mkdir -p target/conformance
# Built with the workspace's features, as by `cargo test` above: `cargo run -p` alone would
# unify features for one package and rebuild boa_engine (minutes in CI).
cargo build -q --workspace --exclude jobgraph-wasm --bins
target/debug/conformance-outcomes > target/conformance/native.json
target/debug/conformance-outcomes pipelines > target/conformance/native-pipelines.json
target/debug/conformance-outcomes grok > target/conformance/native-grok.json
echo "== the served OpenAPI document: openapi-spec-validator, a generated Python client and TypeScript types against the real service" >&2
bash scripts/openapi-clients.sh target/debug/jobgraph
echo "== Schemathesis against the real service, 60 s (scripts/schemathesis.sh; docs/api.md)" >&2
bash scripts/schemathesis.sh 60 target/debug/jobgraph
echo "== TypeScript types of the package (tsc --strict)" >&2
node_modules/.bin/tsc -p tests/js/types/tsconfig.json
echo "== the package's .d.ts against its JavaScript (scripts/check-pkg-types.mjs: checkJs, exports and members both ways)" >&2
node scripts/check-pkg-types.mjs
echo "== npm package tests (Node and headless Chromium)" >&2
NATIVE_OUTCOMES=target/conformance/native.json NATIVE_PIPELINE_OUTCOMES=target/conformance/native-pipelines.json \
  NATIVE_GROK_OUTCOMES=target/conformance/native-grok.json node --test --test-concurrency=1 tests/js/
echo "== all checks passed" >&2
