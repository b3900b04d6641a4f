#!/usr/bin/env bash
# Regenerates vendor/<crate>.patch: the vendored crate against the pristine release in cargo's
# registry (see vendor/README.md). Usage: vendor/diff.sh boa_engine 0.22.0
set -euo pipefail
crate=$1 version=$2
cd "$(dirname "$0")"
pristine=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"$crate-$version" | head -1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$pristine" "$work/a"
cp -r "$crate" "$work/b"
rm -rf "$work/a/Cargo.lock" "$work/b/Cargo.lock" "$work/a/.cargo-ok" "$work/a/.cargo_vcs_info.json" "$work/a/.github" "$work/a/.gitignore" "$work/b/target"
(cd "$work" && diff -ruN a b || true) > "$crate.patch"
echo "vendor/$crate.patch: $(grep -c '^diff' "$crate.patch") files" >&2
