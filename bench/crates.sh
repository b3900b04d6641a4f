#!/usr/bin/env bash
# The dependency weight of the library crates: unique crates in `cargo tree -e normal` (default
# features) and a clean dev build's wall time, of jobgraph-sdk (the API client) and
# jobgraph-lake, at one or more commits.
#
# Usage: bench/crates.sh [COMMIT ...]   (default: HEAD). Each commit is checked out in a
# temporary worktree with its own empty target dir, so every build is clean; the registry's
# sources are shared (no download is timed). Prints one line per crate and commit.
set -euo pipefail
cd "$(dirname "$0")/.."
commits=("$@")
[ ${#commits[@]} -eq 0 ] && commits=(HEAD)
for commit in "${commits[@]}"; do
  dir=$(mktemp -d /tmp/jobgraph-crates.XXXXXX)
  git worktree add -q --detach "$dir" "$commit"
  for crate in jobgraph-sdk jobgraph-lake; do
    count=$(cd "$dir" && cargo tree -p "$crate" -e normal --prefix none 2>/dev/null | sed 's/ (\*)//' | sort -u | wc -l)
    start=$(date +%s.%N)
    (cd "$dir" && CARGO_TARGET_DIR="$dir/target-$crate" cargo build -q -p "$crate" 2>/dev/null)
    end=$(date +%s.%N)
    printf '%s %-14s %4d crates, clean build %6.1f s\n' "$(git rev-parse --short "$commit")" "$crate" "$count" "$(awk "BEGIN{print $end - $start}")"
  done
  git worktree remove --force "$dir"
done
