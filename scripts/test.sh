#!/usr/bin/env bash
# Runs every check and test of the project: format, lints, unit + conformance + doc tests,
# and the wasm32 build check of jobgraph-core.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh

echo "== cargo fmt --check" >&2
cargo fmt --all -- --check
echo "== cargo clippy" >&2
cargo clippy --workspace --all-targets --quiet -- -D warnings
echo "== cargo test (unit, conformance, JSON Schema suite, CLI, doctests)" >&2
cargo test --workspace
echo "== cargo check jobgraph-core for wasm32-unknown-unknown" >&2
cargo check -p jobgraph-core --target wasm32-unknown-unknown --quiet
echo "== all checks passed" >&2
