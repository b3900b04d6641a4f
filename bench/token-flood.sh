#!/usr/bin/env bash
# Credential-guessing flood against `jobgraph serve` (issue 24, point 5): 64 keep-alive
# connections send WRONG secrets to POST /oauth/token for 10 s while authenticated reads
# (GET /v1/templates, 4 connections) and correct token requests are measured.
#   bash bench/token-flood.sh [SECONDS]
# The load client is bench/load (jobgraph-load, this workspace's; oha works too, but this one is
# built in seconds and prints p99). Everything runs on loopback; the flood comes from
# 127.0.0.1, the legitimate client's token requests from 127.0.0.2 (curl --interface: the whole
# 127.0.0.0/8 is local on Linux), which got a token before the flood started, and once from
# 127.0.0.3, an address the client never used.
# PROFILE=release builds and runs release binaries (fat LTO: long to build); the default is the
# debug build, whose dependencies (argon2, tokio, axum, SQLite) are optimized (opt-level 2, see
# Cargo.toml) and whose own crates are not. NO_BUILD=1 uses the binaries already built.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_RUN="${1:-10}"
PROFILE="${PROFILE:-debug}"
if [ -z "${NO_BUILD:-}" ]; then
  flag=()
  [ "$PROFILE" = release ] && flag=(--release)
  nice -n 10 cargo build -q "${flag[@]}" -p jobgraph-cli --bin jobgraph
  nice -n 10 cargo build -q "${flag[@]}" -p jobgraph-load
fi
# BIN=path runs another build of the server (e.g. one of the code before a change).
BIN="${BIN:-target/$PROFILE/jobgraph}"
LOAD="target/$PROFILE/jobgraph-load"
WORK="$(mktemp -d)"
SERVER=""
trap '[ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT

# 127.0.0.1 is a trusted proxy, so that the third flood can come from many addresses
# (X-Forwarded-For); a request from it without the header is keyed by 127.0.0.1 itself.
CONFIG=()
if grep -q trustedProxies "$BIN"; then
  echo '{"tokenThrottle": {"trustedProxies": ["127.0.0.1"]}}' > "$WORK/config.json"
  CONFIG=(--config "$WORK/config.json")
fi
"$BIN" serve --addr 127.0.0.1:0 --data "$WORK/data" --client bench:bench-secret:bench \
  "${CONFIG[@]}" > "$WORK/out" 2> "$WORK/log" &
SERVER=$!
until grep -q "^ready$" "$WORK/out" 2>/dev/null; do sleep 0.05; done
ADDR="$(sed -n 's/^listening on http:\/\/\([^ ]*\).*/\1/p' "$WORK/out")"
BASE="http://$ADDR"
GOOD='{"client_id":"bench","client_secret":"bench-secret","audience":"service","grant_type":"client_credentials"}'
# A correct token request from address $1: prints "status time_ms".
good_token() {
  curl -s -o /dev/null --interface "$1" -w '%{http_code} %{time_total}\n' -X POST "$BASE/oauth/token" \
    -H 'Content-Type: application/json' -d "$GOOD" | awk '{printf "%s %.1f ms\n", $1, $2 * 1000}'
}
TOKEN="$(curl -s --interface 127.0.0.2 -X POST "$BASE/oauth/token" -H 'Content-Type: application/json' \
  -d "$GOOD" | sed 's/.*"access_token":"\([^"]*\)".*/\1/')"
AUTH="Authorization: Bearer $TOKEN"
curl -s -o /dev/null -X POST "$BASE/v1/templates" -H "$AUTH" -H 'Content-Type: application/json' \
  -d '{"name":"t","inputSchema":{"type":"object","properties":{}},"template":"({vertices: [], edges: []})"}'

reads() { "$LOAD" --addr "$ADDR" --connections 4 --seconds "$1" --header "$AUTH" --path /v1/templates; }

echo "== $(nproc) cores, $PROFILE build; load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "-- quiet: reads, then a correct token request from 127.0.0.2"
reads 5
for _ in 1 2 3 4 5; do echo "token (127.0.0.2): $(good_token 127.0.0.2)"; sleep 0.5; done

# Seconds since $1 (a `date +%s.%N`), one decimal: a request sent after the flood's end does
# not count as measured under it.
since() { echo "$(date +%s.%N) - $1" | bc | xargs printf '%.1f'; }
# $1: label, $2: the flood's body ({n}: a number new in every request), $3...: more
# jobgraph-load arguments.
flood() {
  printf '%s' "$2" > "$WORK/wrong.json"
  echo "-- flood: $1, 64 connections, ${SECONDS_PER_RUN} s"
  "$LOAD" --addr "$ADDR" --connections 64 --seconds "$SECONDS_PER_RUN" --method POST \
    --path /oauth/token --body-file "$WORK/wrong.json" "${@:3}" > "$WORK/flood" &
  local flood_pid=$! start=$(date +%s.%N)
  sleep 1
  local read_seconds=$((SECONDS_PER_RUN - 3))
  reads "$read_seconds" &
  local reads_pid=$!
  for _ in 1 2 3 4 5; do
    sleep 0.8
    echo "token (127.0.0.2, the client's address) at +$(since "$start") s: $(good_token 127.0.0.2)"
  done
  echo "token (127.0.0.3, a new address) at +$(since "$start") s: $(good_token 127.0.0.3)"
  wait "$reads_pid"
  wait "$flood_pid"
  echo "flood: $(cat "$WORK/flood")"
  # The limits' windows pass before the next scenario (see docs/api.md, "Token endpoint").
  sleep "${PAUSE:-0}"
}
flood "wrong secrets for the real client id" \
  '{"client_id":"bench","client_secret":"wrong-{n}","grant_type":"client_credentials"}'
flood "unknown client ids" \
  '{"client_id":"guess-{n}","client_secret":"wrong-{n}","grant_type":"client_credentials"}'
if [ ${#CONFIG[@]} -gt 0 ]; then
  flood "unknown client ids, each request from a new address (X-Forwarded-For: 10.x.y.z)" \
    '{"client_id":"guess-{n}","client_secret":"wrong-{n}","grant_type":"client_credentials"}' \
    --header 'X-Forwarded-For: {ip}'
fi
echo "-- after: a correct token request from 127.0.0.2: $(good_token 127.0.0.2)"
echo "server log: $(grep -c 'path=/oauth/token' "$WORK/log") token requests logged, $(grep -c -i 'bench-secret\|wrong-' "$WORK/log" || true) lines naming a secret"
