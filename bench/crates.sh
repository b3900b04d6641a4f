#!/usr/bin/env bash
# The dependency weight of the library crates: unique crates in `cargo tree -e normal` (default
# features), and the CPU time (user + sys, which load beside it inflates less than the wall
# time) and wall time of a clean dev build, of jobgraph-sdk (the API client) and
# jobgraph-lake, at one or more commits.
#
# Usage: [CRATES="jobgraph-sdk jobgraph-lake"] bench/crates.sh [COMMIT ...]   (default: HEAD). Each commit is checked out in a
# temporary worktree with its own empty target dir, so every build is clean; the registry's
# sources are shared (no download is timed). Prints one line per crate and commit.
set -euo pipefail
cd "$(dirname "$0")/.."
commits=("$@")
[ ${#commits[@]} -eq 0 ] && commits=(HEAD)
TIMEFORMAT='%R %U %S'
for commit in "${commits[@]}"; do
  dir=$(mktemp -d /tmp/jobgraph-crates.XXXXXX)
  short=$(git rev-parse --short "$commit")
  git worktree add -q --detach "$dir" "$short"
  for crate in ${CRATES:-jobgraph-sdk jobgraph-lake}; do
    count=$(cd "$dir" && cargo tree -p "$crate" -e normal --prefix none 2>/dev/null | sed 's/ (\*)//' | sort -u | wc -l)
    read -r real user sys < <({ time (cd "$dir" && CARGO_TARGET_DIR="$dir/target-$crate" cargo build -q -p "$crate" >/dev/null 2>&1); } 2>&1)
    printf '%s %-14s %4d crates, clean build: CPU %6.0f s (user %s + sys %s), wall %6.0f s\n' \
      "$short" "$crate" "$count" "$(awk "BEGIN{print $user + $sys}")" "$user" "$sys" "$real"
  done
  git worktree remove --force "$dir"
done
