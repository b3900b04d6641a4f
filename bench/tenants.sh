#!/usr/bin/env bash
# Cost of keeping organizations' scripts apart (issue 24): `POST /v1/templates/test` (the light
# script of bench/serve.sh, new inputs each time) against `jobgraph serve` on loopback, spread
# over 1, 4 and 32 organizations (one client and token per organization, connection i using
# organization i mod k), 32 keep-alive connections (bench/load); plus the per-request latency
# on one connection. Usage:
#   bash bench/tenants.sh [SECONDS] [BIN] [LOAD]
# BIN defaults to target/release/jobgraph (built with NO_BUILD unset); KEPT=n sets the
# service's `keptWorkers` (e.g. KEPT=3 on 2 cores: a worker recycled at nearly every change of
# organization, the alternative design).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_RUN="${1:-10}"
BIN="${2:-target/release/jobgraph}"
LOAD="${3:-target/release/jobgraph-load}"
if [ -z "${NO_BUILD:-}" ] && [ -z "${2:-}" ]; then
  nice -n 10 cargo build -q --release -p jobgraph-cli --bin jobgraph
  nice -n 10 cargo build -q --release -p jobgraph-load
fi
WORK="$(mktemp -d)"
SERVER=""
trap '[ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT

CLIENTS=()
for i in $(seq 1 32); do CLIENTS+=(--client "c$i:secret-$i:org$i"); done
CONFIG=()
if [ -n "${KEPT:-}" ]; then
  echo "{\"keptWorkers\": $KEPT}" > "$WORK/config.json"
  CONFIG=(--config "$WORK/config.json")
fi
nice -n 10 "$BIN" serve --addr 127.0.0.1:0 --data "$WORK/data" "${CONFIG[@]}" "${CLIENTS[@]}" \
  > "$WORK/out" 2> "$WORK/log" &
SERVER=$!
until grep -q '^ready$' "$WORK/out"; do sleep 0.05; done
ADDR="$(sed -n 's/^listening on http:\/\/\([^ ]*\).*/\1/p' "$WORK/out")"
BASE="http://$ADDR"
TOKENS=()
for i in $(seq 1 32); do
  TOKENS+=("$(curl -s -X POST "$BASE/oauth/token" -H 'Content-Type: application/json' \
    -d "{\"client_id\":\"c$i\",\"client_secret\":\"secret-$i\",\"audience\":\"service\",\"grant_type\":\"client_credentials\"}" \
    | sed 's/.*"access_token":"\([^"]*\)".*/\1/')")
done

TEMPLATE='{"name":"Levels","inputSchema":{"type":"object","properties":{"level":{"type":"string","default":"error"}}},
 "template":"({vertices: [{type: \"logs-filter\", name: \"f\", query: {type: \"simple-query\", query: \"level:\" + level}}], edges: []})",
 "inputs":{"input":"f:input"},"outputs":{"output":"f:output"}}'
cat > "$WORK/test.json" <<JSON
{"template": $TEMPLATE, "input": {"values": {"level": "x{n}"}}, "checkValidJobGraph": true}
JSON

run() { # ORGS CONNECTIONS
  local headers=()
  for i in $(seq 0 $(($1 - 1))); do headers+=(--connection-header "Authorization: Bearer ${TOKENS[$i]}"); done
  printf '%2s org(s), %2s connection(s): ' "$1" "$2"
  nice -n 10 "$LOAD" --addr "$ADDR" --connections "$2" --seconds "$SECONDS_PER_RUN" \
    --method POST --path /v1/templates/test --body-file "$WORK/test.json" "${headers[@]}"
}
echo "== $(nproc) cores; $BIN; keptWorkers ${KEPT:-default}"
# Warm every organization's worker first (one request each), as a service would be.
for i in $(seq 0 31); do
  curl -s -o /dev/null -X POST "$BASE/v1/templates/test" -H "Authorization: Bearer ${TOKENS[$i]}" \
    -H 'Content-Type: application/json' -d "{\"template\": $TEMPLATE, \"input\": {\"values\": {\"level\": \"warm$i\"}}}"
done
run 1 1
for orgs in 1 4 32; do run "$orgs" 32; done
echo "workers bound (log lines): $(grep -c 'sandbox worker bound' "$WORK/log" || true)"
