#!/usr/bin/env bash
# Load benchmark of `jobgraph serve` (issue 10), from a second process: bench/load
# (jobgraph-load) with 32 keep-alive connections against a release build on loopback.
#   bash bench/serve.sh [SECONDS]
# Prints one line per scenario; bench/RESULTS.md records them.
# DATABASE_URL=postgres://… runs the server(s) on that PostgreSQL database (emptied first:
# use a throwaway one, e.g. from scripts/pg-cluster.sh) instead of SQLite; REPLICAS=2 starts
# two servers on it and spreads the connections over both. CEILING=1 also measures the
# ceiling on this machine: nginx serving the template read's answer as a static file and
# jobgraph's own /healthz (no database, no token), then wrk against nginx and the template
# read for a second client's opinion (Debian: apt-get install nginx wrk).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_RUN="${1:-10}"
# NO_BUILD=1 uses the release binaries already built.
if [ -z "${NO_BUILD:-}" ]; then
  nice -n 10 cargo build -q --release -p jobgraph-cli --bin jobgraph
  nice -n 10 cargo build -q --release -p jobgraph-load
fi
BIN=target/release/jobgraph
LOAD=target/release/jobgraph-load
WORK="$(mktemp -d)"
SERVERS=()
trap 'kill "${SERVERS[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT

DB_ARGS=()
if [ -n "${DATABASE_URL:-}" ]; then
  psql "$DATABASE_URL" -q -c 'DROP SCHEMA public CASCADE; CREATE SCHEMA public;' 2> /dev/null
  DB_ARGS=(--database "$DATABASE_URL")
fi
ADDRS=()
for r in $(seq 1 "${REPLICAS:-1}"); do
  nice -n 10 "$BIN" serve --addr 127.0.0.1:0 --data "$WORK/data$r" "${DB_ARGS[@]}" \
    --client bench:bench-secret:bench > "$WORK/out$r" 2> "$WORK/log$r" &
  SERVERS+=($!)
  until grep -q '^ready$' "$WORK/out$r"; do sleep 0.05; done
  ADDRS+=("$(sed -n 's/^listening on http:\/\/\([^ ]*\).*/\1/p' "$WORK/out$r")")
done
ADDR="${ADDRS[0]}"
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

ADDR_ARGS=()
for a in "${ADDRS[@]}"; do ADDR_ARGS+=(--addr "$a"); done
run() { nice -n 10 "$LOAD" "${ADDR_ARGS[@]}" --connections 32 --seconds "$SECONDS_PER_RUN" --header "$AUTH" "$@"; }
STORE=SQLite
[ -n "${DATABASE_URL:-}" ] && STORE=PostgreSQL
echo "== $(nproc) cores; ${REPLICAS:-1} server(s) on $STORE; server log lines go to files"
run --path "/v1/templates/$ID"
run --path "/v1/templates/$ID?latest=true"
run --path "/v1/jobs"
run --method POST --path /v1/templates/test --body-file "$WORK/test.json"
run --method POST --path /v1/jobs --body-file "$WORK/job.json"

if [ -n "${CEILING:-}" ]; then
  mkdir -p "$WORK/static"
  curl -s "$BASE/v1/templates/$ID?latest=true" -H "$AUTH" > "$WORK/static/template.json"
  # nginx's workers run as nobody when started as root: they must be able to read the file.
  chmod a+rx "$WORK" "$WORK/static" && chmod a+r "$WORK/static/template.json"
  PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  cat > "$WORK/nginx.conf" <<CONF
worker_processes auto;
daemon off;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  types { application/json json; }
  client_body_temp_path $WORK/nginx-body;
  proxy_temp_path $WORK/nginx-proxy;
  fastcgi_temp_path $WORK/nginx-fastcgi;
  uwsgi_temp_path $WORK/nginx-uwsgi;
  scgi_temp_path $WORK/nginx-scgi;
  server { listen 127.0.0.1:$PORT; root $WORK/static; keepalive_requests 1000000; }
}
CONF
  nice -n 10 nginx -e "$WORK/nginx-error.log" -c "$WORK/nginx.conf" &
  SERVERS+=($!)
  until curl -sf -o /dev/null "http://127.0.0.1:$PORT/template.json"; do sleep 0.05; done
  echo "== ceiling: $(nginx -v 2>&1 | sed 's/^nginx version: //') serving the same answer ($(wc -c < "$WORK/static/template.json") B) as a static file, and jobgraph's /healthz"
  nice -n 10 "$LOAD" --addr "127.0.0.1:$PORT" --connections 32 --seconds "$SECONDS_PER_RUN" --path /template.json
  run --path /healthz
  if command -v wrk > /dev/null; then
    echo "== wrk (2 threads, 32 connections): nginx, then the template read"
    nice -n 10 wrk -t2 -c32 -d"${SECONDS_PER_RUN}s" --latency "http://127.0.0.1:$PORT/template.json" | grep -E 'Requests/sec|^ +(50|99)%'
    nice -n 10 wrk -t2 -c32 -d"${SECONDS_PER_RUN}s" --latency -H "$AUTH" "$BASE/v1/templates/$ID?latest=true" | grep -E 'Requests/sec|^ +(50|99)%'
  fi
fi
