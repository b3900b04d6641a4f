#!/usr/bin/env bash
# job:run end to end (read NDJSON, run, write NDJSON) beside jq doing the same filter and tag
# changes on the same file; checks both outputs are the same bytes. Issue 21's goal: job:run in
# at most 1/10 of jq's time. Usage: bash bench/pipeline.sh [EVENTS=1000000]
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-1000000}"
dir=target/bench/pipeline
mkdir -p "$dir"
cargo build -q --release -p jobgraph-cli
bin=target/release/jobgraph
[ -s "$dir/events-$n.ndjson" ] || node scripts/sample-events.mjs "$n" 1 > "$dir/events-$n.ndjson"
"$bin" resolve examples/jobs/errors-to-vendor.json -t examples/templates --user bench -o "$dir/resolved.json"
echo "events: $n ($(du -h "$dir/events-$n.ndjson" | cut -f1)), machine: $(nproc) cores, $(jq --version)" >&2

# The example job: (level:warn OR level:error) AND NOT service:"healthcheck", then SET env,
# SET pipeline, ADD enrichedBy (the user), then the sink.
filter='select(any(.tags.level[]?; . == "warn" or . == "error"))
  | select(any(.tags.service[]?; . == "healthcheck") | not)
  | .tags.env = ["production"]
  | .tags.pipeline = ["vendor-export"]
  | if any(.tags.enrichedBy[]?; . == "bench") then . else .tags.enrichedBy = ((.tags.enrichedBy // []) + ["bench"]) end'

best() { sort -n | head -1; }
run_jobgraph() { /usr/bin/time -f %e "$bin" job:run "$dir/resolved.json" --events "$dir/events-$n.ndjson" -q -o "$dir/out-jobgraph.ndjson" 2>&1 >/dev/null | tail -1; }
run_jq() { /usr/bin/time -f %e jq -c "$filter" "$dir/events-$n.ndjson" 2>&1 > "$dir/out-jq.ndjson" | tail -1; }
jobgraph_s=$(for _ in 1 2 3; do run_jobgraph; done | best)
jq_s=$(for _ in 1 2; do run_jq; done | best)
if cmp -s "$dir/out-jobgraph.ndjson" "$dir/out-jq.ndjson"; then same="identical"; else same="DIFFERENT"; fi
lines=$(wc -l < "$dir/out-jobgraph.ndjson")
echo "job:run: ${jobgraph_s} s (best of 3); jq: ${jq_s} s (best of 2); ratio $(echo "scale=3; $jobgraph_s / $jq_s" | bc); outputs: $lines events, $same"
[ "$same" = identical ]
