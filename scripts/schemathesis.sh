#!/usr/bin/env bash
# Fuzzes the real service with Schemathesis (docs/api.md, "Checked with Schemathesis"):
# `jobgraph serve` on a loopback port in a fresh data folder, a token, then every operation of
# the served OpenAPI document with every check, for a bounded time.
#
# Usage: scripts/schemathesis.sh [SECONDS] [JOBGRAPH_BINARY]   (defaults: 60, target/debug/jobgraph)
#   SCHEMATHESIS_SEED   the seed (default 1)
#   SCHEMATHESIS_WORKERS  concurrent workers (default 1: with more, Python 3.11's `ast.parse`,
#                       which Hypothesis calls to describe its filters, fails now and then with
#                       "AST constructor recursion depth mismatch", a runtime error of the tool)
#   SCHEMATHESIS_RAW=1  without scripts/schemathesis.toml: every check on every operation,
#                       the by-design refusals of valid-looking requests included (what the
#                       runs in docs/api.md report); without it the configuration turns off
#                       `positive_data_acceptance` on the operations listed there, each with
#                       its reason, and any other finding fails the run.
#
# Builds nothing: run `cargo build -p jobgraph-cli` first. Schemathesis comes from the venv
# target/st-venv at the version pinned below (scripts/setup.sh creates it; this script does
# when it is missing). Its report and its cache (.schemathesis/) go to a temporary folder;
# the output ends with the summary.
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=4.32.5
SECONDS_TO_RUN=${1:-60}
BIN=${2:-target/debug/jobgraph}
VENV=target/st-venv
SEED=${SCHEMATHESIS_SEED:-1}
CLIENT_ID=schemathesis
CLIENT_SECRET=schemathesis-secret

fail() { printf 'FAILED: %s\n' "$*" >&2; exit 1; }
[[ -x $BIN ]] || fail "no jobgraph binary at $BIN (cargo build -p jobgraph-cli)"
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
CONFIG=$PWD/scripts/schemathesis.toml

if ! [[ -x $VENV/bin/schemathesis ]] \
    || [[ $("$VENV/bin/schemathesis" --version 2>/dev/null) != *"$SCHEMATHESIS_VERSION" ]]; then
    echo "== installing schemathesis==$SCHEMATHESIS_VERSION into $VENV" >&2
    [[ -x $VENV/bin/python ]] || python3 -m venv "$VENV" \
        || fail "python3 -m venv failed (on Debian/Ubuntu: apt-get install python3-venv)"
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi
ST=$PWD/$VENV/bin/schemathesis

WORK=$(mktemp -d)
SERVER_PID=
cleanup() {
    local status=$?
    if [[ -n $SERVER_PID ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    if [[ $status -ne 0 && -s $WORK/serve.log ]]; then
        echo "-- last lines of the server's log:" >&2
        tail -n 20 "$WORK/serve.log" >&2
    fi
    rm -rf "$WORK"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

exec {SERVE_OUT}< <(exec "$BIN" serve --addr 127.0.0.1:0 --data "$WORK/data" \
    --client "$CLIENT_ID:$CLIENT_SECRET:schemathesis-org" 2>"$WORK/serve.log")
SERVER_PID=$!
BASE=
line=
while IFS= read -r -t 60 -u "$SERVE_OUT" line; do
    case $line in
        "listening on http://"*) BASE=${line#listening on }; BASE=${BASE%% *} ;;
        ready) break ;;
    esac
done
[[ $line == ready && -n $BASE ]] || fail "the server did not print its address and 'ready' within 60 s"
cat <&"$SERVE_OUT" >/dev/null &
exec {SERVE_OUT}<&-

TOKEN=$(curl -fsS -X POST "$BASE/oauth/token" -H 'Content-Type: application/json' \
    -d "{\"client_id\":\"$CLIENT_ID\",\"client_secret\":\"$CLIENT_SECRET\",\"grant_type\":\"client_credentials\"}" \
    | sed 's/.*"access_token":"\([^"]*\)".*/\1/')
[[ -n $TOKEN ]] || fail "no access token"

# The configuration enables every check itself (`--checks all` on the command line would win
# over its per-operation settings).
if [[ ${SCHEMATHESIS_RAW:-0} == 1 ]]; then
    GLOBAL=() CHECKS=(--checks all) MODE="raw: every check everywhere"
else
    GLOBAL=(--config-file "$CONFIG") CHECKS=() MODE="scripts/schemathesis.toml"
fi
echo "== schemathesis $SCHEMATHESIS_VERSION against $BASE for ${SECONDS_TO_RUN} s (seed $SEED; $MODE)" >&2
cd "$WORK"
"$ST" "${GLOBAL[@]}" run "$BASE/openapi.json" -H "Authorization: Bearer $TOKEN" \
    "${CHECKS[@]}" --max-time "$SECONDS_TO_RUN" -w "${SCHEMATHESIS_WORKERS:-1}" --seed "$SEED" --no-color
