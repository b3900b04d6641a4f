#!/usr/bin/env bash
# Installs what the build and the tests need, skipping whatever is already present.
set -euo pipefail

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  echo "setup: adding the wasm32-unknown-unknown target" >&2
  rustup target add wasm32-unknown-unknown
fi
for component in rustfmt clippy; do
  if ! rustup component list --installed 2>/dev/null | grep -q "^$component"; then
    echo "setup: adding $component" >&2
    rustup component add "$component"
  fi
done
