#!/usr/bin/env bash
# Load benchmark of `jobgraph serve` (issue 10), from a second process: bench/load
# (jobgraph-load) with 32 keep-alive connections against a release build on loopback.
#   bash bench/serve.sh [SECONDS]
# Prints one line per scenario; bench/RESULTS.md records them.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_RUN="${1:-10}"
# NO_BUILD=1 uses the release binaries already built.
if [ -z "${NO_BUILD:-}" ]; then
  nice -n 10 cargo build -q --release -p jobgraph-sdk --bin jobgraph
  nice -n 10 cargo build -q --release -p jobgraph-load
fi
BIN=target/release/jobgraph
LOAD=target/release/jobgraph-load
WORK="$(mktemp -d)"
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; rm -rf "$WORK"' EXIT

nice -n 10 "$BIN" serve --addr 127.0.0.1:0 --data "$WORK/data" --client bench:bench-secret:bench \
  > "$WORK/out" 2> "$WORK/log" &
SERVER=$!
until grep -q '^ready$' "$WORK/out"; do sleep 0.05; done
ADDR="$(sed -n 's/^listening on http:\/\/\([^ ]*\).*/\1/p' "$WORK/out")"
BASE="http://$ADDR"
TOKEN="$(curl -s -X POST "$BASE/oauth/token" -H 'Content-Type: application/json' \
  -d '{"client_id":"bench","client_secret":"bench-secret","audience":"service","grant_type":"client_credentials"}' \
  | sed 's/.*"access_token":"\([^"]*\)".*/\1/')"
AUTH="Authorization: Bearer $TOKEN"

TEMPLATE='{"name":"Levels","inputSchema":{"type":"object","properties":{"level":{"type":"string","default":"error"}}},
 "template":"({vertices: [{type: \"logs-filter\", name: \"f\", query: {type: \"simple-query\", query: \"level:\" + level}}], edges: []})",
 "inputs":{"input":"f:input"},"outputs":{"output":"f:output"}}'
ID="$(curl -s -X POST "$BASE/v1/templates" -H "$AUTH" -H 'Content-Type: application/json' -d "$TEMPLATE" \
  | sed 's/^{"id":"\([^"]*\)".*/\1/')"

# Twenty jobs to list (each with one operation).
for i in $(seq 1 20); do
  curl -s -o /dev/null -X POST "$BASE/v1/jobs" -H "$AUTH" -H 'Content-Type: application/json' -d "{\"name\":\"job $i\",\"execution\":\"ASYNCHRONOUS\",\"processing\":\"STREAMING\",\"jobGraph\":{\"vertices\":[{\"type\":\"template-operation\",\"name\":\"op\",\"templateId\":\"$ID\",\"templateInputs\":{\"level\":\"l$i\"}}],\"edges\":[]}}"
done

# A light test request; {n} makes every request's inputs new, so no cached result answers.
cat > "$WORK/test.json" <<JSON
{"template": $TEMPLATE, "input": {"values": {"level": "x{n}"}}, "checkValidJobGraph": true}
JSON
# A job of 5 template operations, inputs new in every request.
OPS=""
for k in 1 2 3 4 5; do
  OPS="$OPS{\"type\":\"template-operation\",\"name\":\"op$k\",\"templateId\":\"$ID\",\"templateInputs\":{\"level\":\"l$k-{n}\"}},"
done
cat > "$WORK/job.json" <<JSON
{"name":"five ops","execution":"ASYNCHRONOUS","processing":"STREAMING","jobGraph":{"vertices":[${OPS%,}],"edges":[]}}
JSON

run() { nice -n 10 "$LOAD" --addr "$ADDR" --connections 32 --seconds "$SECONDS_PER_RUN" --header "$AUTH" "$@"; }
echo "== $(nproc) cores; server log lines go to a file"
run --path "/v1/templates/$ID"
run --path "/v1/templates/$ID?latest=true"
run --path "/v1/jobs"
run --method POST --path /v1/templates/test --body-file "$WORK/test.json"
run --method POST --path /v1/jobs --body-file "$WORK/job.json"
