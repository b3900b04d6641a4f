#!/usr/bin/env bash
# What the records of `POST /v1/jobs/sync` cost (issue 34; bench/RESULTS.md "One event per
# sync record"): N events (default 1 000 000, ~230 MB of NDJSON from bench/lake-gen.py, 30 days)
# loaded into a dataset, then
#   1. every event of the last DAYS days (default 3: 100 000 events; 30: all) streamed by `POST /v1/jobs/sync`
#      with curl (the service alone: its records written, read and thrown away), 5 runs;
#   2. the same with `jobgraph query -f raw > /dev/null` (a client parsing every record), 3 runs;
#   3. lake.sh's query (one hour, `(level:warn OR level:error) AND service:checkout`), 5 runs.
# Usage: bash bench/sync-records.sh [N] [DAYS]
#   BIN=path/to/jobgraph (default target/release/jobgraph; NO_BUILD=1 skips the build), so that
#   two builds (before and after a change) run on the same data: WORK=dir keeps the events.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-1000000}
DAYS=${2:-3}
WORK=${WORK:-target/sync-bench}
mkdir -p "$WORK"
BIN=${BIN:-target/release/jobgraph}
[ -n "${NO_BUILD:-}" ] || cargo build --release -q -p jobgraph-cli --bin jobgraph

EVENTS="$WORK/events-$N.ndjson"
if [ ! -s "$EVENTS" ]; then
  echo "generating $N events into $EVENTS" >&2
  python3 bench/lake-gen.py "$N" 30 2026-11-25T00:00:00Z > "$EVENTS.tmp" && mv "$EVENTS.tmp" "$EVENTS"
fi

DATA=$(mktemp -d "$WORK/serve.XXXX")
"$BIN" serve --addr 127.0.0.1:0 --data "$DATA" --client bench:bench-secret:bench \
  > "$DATA/stdout" 2> "$DATA/stderr" &
PID=$!
trap 'kill $PID 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$DATA"' EXIT
for _ in $(seq 1 200); do grep -q '^ready$' "$DATA/stdout" 2>/dev/null && break; sleep 0.05; done
URL=$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$DATA/stdout")
export JOBGRAPH_API_BASE_URL=$URL JOBGRAPH_CLIENT_ID=bench JOBGRAPH_CLIENT_SECRET=bench-secret HOME=$DATA
TOKEN=$(curl -sf "$URL/oauth/token" -H 'Content-Type: application/json' \
  -d '{"client_id":"bench","client_secret":"bench-secret","audience":"service","grant_type":"client_credentials"}' \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')
ID=$(curl -sf "$URL/v1/datasets" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
  -d '{"name":"bench","partitioning":"HOUR"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
"$BIN" dataset:load "$ID" "$EVENTS" -q -f compact > "$WORK/load.json"
echo "loaded: $(cat "$WORK/load.json")" >&2

ms() { python3 -c "import sys; print(round((float(sys.argv[2]) - float(sys.argv[1])) * 1000, 1))" "$1" "$2"; }
job() {  # dataset start end query limit
  python3 -c "import json,sys; print(json.dumps({'name':'q','execution':'SYNCHRONOUS','processing':'BATCH','jobGraph':{'vertices':[{'type':'logs-iceberg-table-source','name':'s','datasetId':sys.argv[1],'start':sys.argv[2],'end':sys.argv[3],'limit':int(sys.argv[5]),'sortOrder':'UNSORTED','query':{'type':'datadog-query','query':sys.argv[4]}},{'type':'logs-sync-sink','name':'o'}],'edges':['s -> o']}}))" "$@"
}
# The last DAYS days of the data (which ends 2026-11-25).
BE=2026-11-25T00:00:00Z
BS=$(python3 -c "import datetime,sys; print((datetime.datetime(2026,11,25,tzinfo=datetime.timezone.utc)-datetime.timedelta(days=int(sys.argv[1]))).strftime('%Y-%m-%dT%H:%M:%SZ'))" "$DAYS")
BIG=$(job "$ID" "$BS" $BE "" 100000000)
curl -sf "$URL/v1/jobs/sync" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
  -d "$BIG" -o "$WORK/big.ndjson"
python3 - "$WORK/big.ndjson" <<'PY'
import json, sys
raw = open(sys.argv[1], "rb").read()
records = [json.loads(l) for l in raw.split(b"\r\n") if l.strip()]
running = [r for r in records if r["jobState"] == "RUNNING" and "data" in r]
events = sum(len(r["data"]) if isinstance(r["data"], list) else 1 for r in running)
print(f"stream of {len(raw)/1e6:.1f} MB: {len(records)} records, {len(running)} carrying data, {events} events; last {records[-1]['jobState']}")
PY
curl_runs=()
for i in 1 2 3 4 5; do
  curl_runs+=("$(curl -sf -o /dev/null -w '%{time_total}' "$URL/v1/jobs/sync" -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' -d "$BIG" | python3 -c 'import sys; print(round(float(sys.stdin.read())*1000,1))')")
done
cli_runs=()
for i in 1 2 3; do
  S=$(date +%s.%N)
  "$BIN" query --dataset-id "$ID" --start "$BS" --end $BE --limit 100000000 -q -f raw > "$WORK/cli.ndjson"
  E=$(date +%s.%N)
  cli_runs+=("$(ms "$S" "$E")")
done
LINES=$(wc -l < "$WORK/cli.ndjson")
Q='(level:warn OR level:error) AND service:checkout'
HOUR=$(job "$ID" 2026-11-10T14:00:00Z 2026-11-10T15:00:00Z "$Q" 100000000)
hour_runs=()
for i in 1 2 3 4 5; do
  hour_runs+=("$(curl -sf -o /dev/null -w '%{time_total}' "$URL/v1/jobs/sync" -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' -d "$HOUR" | python3 -c 'import sys; print(round(float(sys.stdin.read())*1000,1))')")
done
python3 - "$DAYS" "$LINES" "${curl_runs[*]}" "${cli_runs[*]}" "${hour_runs[*]}" <<'PY'
import statistics, sys
days, lines = sys.argv[1], int(sys.argv[2])
curl, cli, hour = ([float(x) for x in a.split()] for a in sys.argv[3:6])
print(f"every event of {days} days ({lines} events):")
print(f"  POST /v1/jobs/sync with curl: median {statistics.median(curl):.1f} ms ({lines / statistics.median(curl) * 1000:,.0f} events/s)  runs {curl}")
print(f"  jobgraph query -f raw > /dev/null: median {statistics.median(cli):.1f} ms ({lines / statistics.median(cli) * 1000:,.0f} events/s)  runs {cli}")
print(f"one hour, lake.sh's query, POST /v1/jobs/sync with curl: median {statistics.median(hour):.1f} ms  runs {hour}")
PY
