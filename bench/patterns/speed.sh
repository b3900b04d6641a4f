#!/usr/bin/env bash
# The reducer's speed against drain3 on the same 1,000,000 lines, in the same run, one core each
# (taskset -c 0): `jobgraph_core::pipeline::PatternMiner` (core/examples/patterns_speed.rs, the
# release build) mining patterns, then the whole `log-reducer` stage on the lines as events, then
# drain3 (drain3_bench.py speed, its defaults). Prints each tool's lines/s and the ratio.
#
#   bench/patterns/speed.sh FILE [VENV]      (VENV: /tmp/patterns/venv, see README.md)
set -euo pipefail
cd "$(dirname "$0")/../.."
file=${1:?usage: bench/patterns/speed.sh FILE [VENV]}
venv=${2:-/tmp/patterns/venv}
cargo build --quiet --release -p jobgraph-core --example patterns_speed
echo "== jobgraph ($(git rev-parse --short HEAD)) on $file" >&2
ours=$(taskset -c 0 target/release/examples/patterns_speed "$file")
echo "$ours"
echo "== drain3 on $file" >&2
theirs=$(taskset -c 0 "$venv/bin/python" bench/patterns/drain3_bench.py speed "$file" | tail -1)
echo "$theirs"
mine=$(echo "$ours" | sed -n 's/^mine: .* \([0-9]*\) lines\/s$/\1/p')
drain=$(echo "$theirs" | python3 -c 'import json,sys; print(json.load(sys.stdin)["lines_per_s_cpu"])')
python3 -c "print(f'mining: {$mine:,} lines/s; drain3: {$drain:,} lines/s (CPU); ratio {$mine/$drain:.1f}x')"
