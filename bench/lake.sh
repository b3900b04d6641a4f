#!/usr/bin/env bash
# The data lake's figures (issue 22; bench/RESULTS.md "The data lake"):
#   1. load N events (default 10 000 000, ~2.3 GB of NDJSON from bench/lake-gen.py, 30 days)
#      into a dataset with `jobgraph dataset:load`: events/s;
#   2. query one hour, `(level:warn OR level:error) AND service:checkout`, every matching event
#      (`jobgraph query -f raw`): time and bytes read (the run's `scan` figures);
#   3. DuckDB (target/lake-venv) running the equivalent SQL over the same Parquet files (the
#      manifest's list), in the same run: time;
#   4. the newest 100 `level:error AND service:checkout` of the 30 days (`--order desc`), beside
#      UNSORTED and DuckDB's ORDER BY event_time DESC LIMIT 100.
# Usage: bash bench/lake.sh [N]        (NO_BUILD=1 reuses target/release/jobgraph)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-10000000}
WORK=target/lake-bench
mkdir -p "$WORK"
BIN=target/release/jobgraph
[ -n "${NO_BUILD:-}" ] || cargo build --release -q -p jobgraph-cli --bin jobgraph
PY=target/lake-venv/bin/python
[ -x "$PY" ] || { echo "no $PY: run scripts/setup.sh" >&2; exit 1; }

EVENTS="$WORK/events-$N.ndjson"
if [ ! -s "$EVENTS" ]; then
  echo "generating $N events into $EVENTS" >&2
  python3 bench/lake-gen.py "$N" 30 2026-11-25T00:00:00Z > "$EVENTS.tmp" && mv "$EVENTS.tmp" "$EVENTS"
fi

DATA=$(mktemp -d "$WORK/serve.XXXX")
"$BIN" serve --addr 127.0.0.1:0 --data "$DATA" --client bench:bench-secret:bench \
  > "$DATA/stdout" 2> "$DATA/stderr" &
PID=$!
trap 'kill $PID 2>/dev/null || true; rm -rf "$DATA"' EXIT
for _ in $(seq 1 200); do grep -q '^ready$' "$DATA/stdout" 2>/dev/null && break; sleep 0.05; done
URL=$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$DATA/stdout")
export JOBGRAPH_API_BASE_URL=$URL JOBGRAPH_CLIENT_ID=bench JOBGRAPH_CLIENT_SECRET=bench-secret HOME=$DATA
TOKEN=$(curl -sf "$URL/oauth/token" -H 'Content-Type: application/json' \
  -d '{"client_id":"bench","client_secret":"bench-secret","audience":"service","grant_type":"client_credentials"}' \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')
ID=$(curl -sf "$URL/v1/datasets" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
  -d '{"name":"bench","partitioning":"HOUR"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')

BYTES=$(stat -c %s "$EVENTS")
START=$(date +%s.%N)
"$BIN" dataset:load "$ID" "$EVENTS" -q -f compact > "$WORK/load.json"
END=$(date +%s.%N)
python3 - "$WORK/load.json" "$START" "$END" "$BYTES" <<'PY'
import json, sys
load = json.load(open(sys.argv[1])); s = float(sys.argv[3]) - float(sys.argv[2]); b = int(sys.argv[4])
print(f"load: {load['events']} events ({b/1e9:.2f} GB NDJSON) in {s:.1f} s: {load['events']/s:,.0f} events/s, {b/1e6/s:.0f} MB/s; {load['files']} files, {load['bytes']/1e6:.0f} MB of Parquet")
PY

Q='(level:warn OR level:error) AND service:checkout'
export QS=2026-11-10T14:00:00Z QE=2026-11-10T15:00:00Z
# The files endpoint is paged (docs/api.md, "Pagination"): pages of 1000, following nextCursor.
: > "$WORK/files-pages.ndjson"
CURSOR=""
while :; do
  curl -sf "$URL/v1/datasets/$ID/files?limit=1000${CURSOR:+&cursor=$CURSOR}" -H "Authorization: Bearer $TOKEN" > "$WORK/files-page.json"
  CURSOR=$(python3 -c 'import json, sys
page = json.load(open(sys.argv[1]))
with open(sys.argv[2], "a") as out:
    for item in page["items"]: out.write(json.dumps(item) + "\n")
print(page.get("nextCursor", ""))' "$WORK/files-page.json" "$WORK/files-pages.ndjson")
  [ -n "$CURSOR" ] || break
done
"$BIN" dataset:files "$ID" -f raw -q > "$WORK/files.ndjson" 2>/dev/null || true
python3 - "$WORK" "$DATA/lake" <<'PY'
import json, sys, os
work, root = sys.argv[1], sys.argv[2]
rows = [json.loads(l) for l in open(f"{work}/files.ndjson") if l.strip()]
paged = [json.loads(l) for l in open(f"{work}/files-pages.ndjson") if l.strip()]
if not rows:
    rows = paged
elif [r["path"] for r in rows] != [r["path"] for r in paged]:
    sys.exit(f"dataset:files listed {len(rows)} files, the service's pages {len(paged)}: they differ")
json.dump([os.path.join(root, r["path"]) for r in rows], open(f"{work}/paths.json", "w"))
from datetime import datetime
t = lambda text: datetime.fromisoformat(text.replace("Z", "+00:00"))
qs, qe = t(os.environ["QS"]), t(os.environ["QE"])
near = [os.path.join(root, r["path"]) for r in rows if t(r["maxTime"]) >= qs and t(r["minTime"]) < qe]
json.dump(near, open(f"{work}/paths-in-range.json", "w"))
print(f"dataset: {len(rows)} files, {sum(r['bytes'] for r in rows)/1e6:.0f} MB")
PY

ours=()
for i in 1 2 3 4 5; do
  S=$(date +%s.%N)
  "$BIN" query --dataset-id "$ID" --start $QS --end $QE --query "$Q" --limit 100000000 -q -f raw > "$WORK/ours.ndjson"
  E=$(date +%s.%N)
  ours+=("$(python3 -c "print(round(($E-$S)*1000,1))")")
done
# The newest 100 checkout errors of the 30 days (sortOrder DESCENDING), and the same with the
# public client's UNSORTED (file order: the oldest files first).
Q2='level:error AND service:checkout'
export DS=2026-10-26T00:00:00Z DE=2026-11-25T00:00:00Z
newest=(); unsorted=()
for i in 1 2 3 4 5; do
  S=$(date +%s.%N)
  "$BIN" query --dataset-id "$ID" --start $DS --end $DE --query "$Q2" --order desc --limit 100 -q -f raw > "$WORK/newest.ndjson"
  E=$(date +%s.%N)
  newest+=("$(python3 -c "print(round(($E-$S)*1000,1))")")
  S=$(date +%s.%N)
  "$BIN" query --dataset-id "$ID" --start $DS --end $DE --query "$Q2" --limit 100 -q -f raw > /dev/null
  E=$(date +%s.%N)
  unsorted+=("$(python3 -c "print(round(($E-$S)*1000,1))")")
done
JOB=$(python3 -c "import json,sys; print(json.dumps({'name':'q','execution':'SYNCHRONOUS','processing':'BATCH','jobGraph':{'vertices':[{'type':'logs-iceberg-table-source','name':'s','datasetId':sys.argv[1],'start':sys.argv[2],'end':sys.argv[3],'limit':100000000,'query':{'type':'simple-query','query':sys.argv[4]}},{'type':'logs-sync-sink','name':'o'}],'edges':['s -> o']}}))" "$ID" $QS $QE "$Q")
curl -sf "$URL/v1/jobs/sync" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d "$JOB" | tail -c 2000 | tr '\r' '\n' | grep scan > "$WORK/scan.json" || true
http=()
for i in 1 2 3 4 5; do
  http+=("$(curl -sf -o /dev/null -w '%{time_total}' "$URL/v1/jobs/sync" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d "$JOB" | python3 -c 'import sys; print(round(float(sys.stdin.read())*1000,1))')")
done

"$PY" - "$WORK" "$QS" "$QE" "${ours[*]}" "${http[*]}" "${newest[*]}" "${unsorted[*]}" <<'PY'
import json, sys, time, statistics
import duckdb
work, qs, qe, ours = sys.argv[1], sys.argv[2], sys.argv[3], [float(x) for x in sys.argv[4].split()]
http = [float(x) for x in sys.argv[5].split()]
newest, unsorted = [float(x) for x in sys.argv[6].split()], [float(x) for x in sys.argv[7].split()]
paths = json.load(open(f"{work}/paths.json"))
con = duckdb.connect()
sql = """SELECT * REPLACE (CAST(event_time AS VARCHAR) AS event_time) FROM read_parquet(?) WHERE event_time >= CAST(? AS TIMESTAMPTZ) AND event_time < CAST(? AS TIMESTAMPTZ)
  AND (list_contains(tag_level, 'warn') OR list_contains(tag_level, 'error')) AND list_contains(tag_service, 'checkout')"""
def runs(files):
    times, n = [], 0
    for _ in range(5):
        t = time.perf_counter(); rows = con.execute(sql, [files, qs, qe]).fetchall(); times.append((time.perf_counter() - t) * 1000); n = len(rows)
    return times, n
times, n = runs(paths)
near = json.load(open(f"{work}/paths-in-range.json"))
near_times, near_n = runs(near)
got = sum(1 for l in open(f"{work}/ours.ndjson") if l.strip())
scan = json.loads(open(f"{work}/scan.json").read().strip() or "{}").get("scan", {})
total = sum(1 for _ in paths)
print(f"query one hour of 30 days, {got} events (DuckDB: {n}):")
print(f"  jobgraph query (CLI, end to end): median {statistics.median(ours):.1f} ms  runs {ours}")
print(f"  POST /v1/jobs/sync with curl (the service alone: no CLI process): median {statistics.median(http):.1f} ms  runs {http}")
print(f"  DuckDB {duckdb.__version__} read_parquet + SQL (in process): median {statistics.median(times):.1f} ms  runs {[round(x,1) for x in times]}")
print(f"  DuckDB on the {len(near)} file(s) the manifest lists for the hour ({near_n} events): median {statistics.median(near_times):.1f} ms  runs {[round(x,1) for x in near_times]}")
print(f"  ratio (CLI): {statistics.median(ours)/statistics.median(times):.2f}x DuckDB on every file, {statistics.median(ours)/statistics.median(near_times):.2f}x DuckDB on the hour's files")
print(f"  ratio (service): {statistics.median(http)/statistics.median(times):.2f}x DuckDB on every file, {statistics.median(http)/statistics.median(near_times):.2f}x DuckDB on the hour's files")
newest_sql = """SELECT id FROM read_parquet(?) WHERE list_contains(tag_level, 'error') AND list_contains(tag_service, 'checkout')
  ORDER BY event_time DESC LIMIT 100"""
duck_newest, duck_ids = [], []
for _ in range(5):
    t = time.perf_counter(); duck_ids = [r[0] for r in con.execute(newest_sql, [paths]).fetchall()]; duck_newest.append((time.perf_counter() - t) * 1000)
ours_ids = [json.loads(l)["id"] for l in open(f"{work}/newest.ndjson") if l.strip()]
print(f"newest 100 of `level:error AND service:checkout` over the 30 days ({'same ids as' if ours_ids == duck_ids else 'DIFFERENT ids from'} DuckDB's ORDER BY event_time DESC LIMIT 100):")
print(f"  jobgraph query --order desc --limit 100 (CLI, end to end): median {statistics.median(newest):.1f} ms  runs {newest}")
print(f"  jobgraph query --limit 100 (UNSORTED: the oldest files first): median {statistics.median(unsorted):.1f} ms  runs {unsorted}")
print(f"  DuckDB read_parquet + ORDER BY event_time DESC LIMIT 100 over every file: median {statistics.median(duck_newest):.1f} ms  runs {[round(x,1) for x in duck_newest]}")
print(f"  ratio (CLI, desc): {statistics.median(newest)/statistics.median(duck_newest):.2f}x DuckDB")
if scan:
    print(f"  bytes read by the service: {scan['bytesScanned']:,} of {scan.get('bytesInRange', 0):,} in range; files {scan['filesScanned']}/{scan['files']}, row groups {scan['rowGroupsScanned']}/{scan['rowGroups']}")
PY
