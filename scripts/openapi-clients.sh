#!/usr/bin/env bash
# Checks the OpenAPI document that `jobgraph serve` serves with the tools people point at it:
#   1. openapi-spec-validator (PyPI): no error;
#   2. openapi-python-client (PyPI): generates a client without warnings, and a program
#      (tests/openapi-clients/python_client.py) drives the real service with it: token,
#      create, update, list and read back a template;
#   3. openapi-typescript (npm): generates the types, and tests/openapi-clients/typed-use.ts
#      compiles against them with `tsc --strict` (including a wrong field type it must reject).
#
# Usage: scripts/openapi-clients.sh [JOBGRAPH_BINARY]   (default target/debug/jobgraph)
# Builds nothing: run `cargo build -p jobgraph-cli` first. Needs python3 (with its venv
# module) and node/npm. The Python tools go to a venv under target/openapi-venv (installed once
# at the pinned versions below); the npm ones come from package-lock.json (`npm ci` when
# node_modules has no openapi-typescript). Generated code and the document are kept in
# target/openapi-clients/ for inspection. Exits non-zero on the first failed check.
set -euo pipefail
cd "$(dirname "$0")/.."

SPEC_VALIDATOR_VERSION=0.9.0
# 0.28.0 to 0.29.1 (the latest) generate a required body with several content types (ours:
# POST /oauth/token, JSON or form) as `body: A | B | Unset = UNSET` without importing `Unset`,
# so the module fails to import (openapi-python-client issue 1451, fix proposed in PR 1478).
# 0.27.1 generates it right; move on once a release has the fix.
PYTHON_CLIENT_VERSION=0.27.1

BIN=${1:-target/debug/jobgraph}
VENV=target/openapi-venv
OUT=target/openapi-clients
CLIENT_ID=openapi-check
CLIENT_SECRET=openapi-check-secret
ORG=openapi-org

step() { printf '== %s\n' "$*"; }
fail() { printf 'FAILED: %s\n' "$*" >&2; exit 1; }

[[ -x $BIN ]] || fail "no jobgraph binary at $BIN (cargo build -p jobgraph-cli)"

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

# --- tools -----------------------------------------------------------------------------
step "Python tools in $VENV (openapi-spec-validator $SPEC_VALIDATOR_VERSION, openapi-python-client $PYTHON_CLIENT_VERSION)"
installed() {
    [[ -x $VENV/bin/python ]] && "$VENV/bin/python" - "$@" <<'EOF'
import sys
from importlib.metadata import version, PackageNotFoundError
try:
    ok = all(version(name) == want for name, want in (a.split("==") for a in sys.argv[1:]))
except PackageNotFoundError:
    ok = False
sys.exit(0 if ok else 1)
EOF
}
PINS=("openapi-spec-validator==$SPEC_VALIDATOR_VERSION" "openapi-python-client==$PYTHON_CLIENT_VERSION")
if installed "${PINS[@]}"; then
    echo "already installed"
else
    [[ -x $VENV/bin/python ]] || python3 -m venv "$VENV" \
        || fail "python3 -m venv failed (on Debian/Ubuntu: apt-get install python3-venv)"
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check "${PINS[@]}"
    installed "${PINS[@]}" || fail "the pinned Python tools did not install"
fi

step "npm tools (openapi-typescript, typescript) from package-lock.json"
if [[ ! -x node_modules/.bin/openapi-typescript || ! -x node_modules/.bin/tsc ]]; then
    npm ci --no-audit --no-fund --loglevel=error
fi
echo "openapi-typescript $(node_modules/.bin/openapi-typescript --version), tsc $(node_modules/.bin/tsc --version)"

# --- the service -----------------------------------------------------------------------
step "starting $BIN serve on 127.0.0.1:0"
exec {SERVE_OUT}< <(exec "$BIN" serve --addr 127.0.0.1:0 --data "$WORK/data" \
    --client "$CLIENT_ID:$CLIENT_SECRET:$ORG" 2>"$WORK/serve.log")
SERVER_PID=$!
BASE=
line=
while IFS= read -r -t 60 -u "$SERVE_OUT" line; do
    echo "serve: $line"
    case $line in
        "listening on http://"*) BASE=${line#listening on }; BASE=${BASE%% *} ;;
        ready) break ;;
    esac
done
[[ $line == ready && -n $BASE ]] || fail "the server did not print its address and 'ready' within 60 s"
# Keep its standard output drained for as long as it runs.
cat <&"$SERVE_OUT" >/dev/null &
exec {SERVE_OUT}<&-

rm -rf "$OUT"
mkdir -p "$OUT/ts"
step "GET $BASE/openapi.json"
curl -fsS "$BASE/openapi.json" -o "$OUT/openapi.json"
"$VENV/bin/python" - "$OUT/openapi.json" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
ops = [op for item in doc["paths"].values() for op in item.values()]
print(f"OpenAPI {doc['openapi']}, {len(doc['paths'])} paths, {len(ops)} operations, "
      f"{sum(len(op['responses']) for op in ops)} responses")
EOF

# --- 1. validator ----------------------------------------------------------------------
step "openapi-spec-validator $OUT/openapi.json"
"$VENV/bin/openapi-spec-validator" --subschema-errors all --validation-errors all "$OUT/openapi.json" \
    || fail "openapi-spec-validator found errors"

# --- 2. Python client ------------------------------------------------------------------
step "openapi-python-client generate (package jobgraph_openapi_client)"
cat > "$WORK/python-client.yaml" <<'EOF'
project_name_override: jobgraph-openapi-client
package_name_override: jobgraph_openapi_client
# POST /v1/jobs/sync answers application/x-ndjson (JSON records, one a line), a type the
# generator does not know: its documented override reads it as text, which it is.
content_type_overrides:
  application/x-ndjson: text/plain
EOF
# Its post-generation hooks run ruff, which the venv has.
if ! PATH="$PWD/$VENV/bin:$PATH" "$VENV/bin/openapi-python-client" generate \
    --path "$OUT/openapi.json" --config "$WORK/python-client.yaml" \
    --output-path "$OUT/python" --overwrite >"$WORK/generate.log" 2>&1; then
    cat "$WORK/generate.log"
    fail "openapi-python-client failed"
fi
cat "$WORK/generate.log"
if grep -qi "warning" "$WORK/generate.log"; then
    fail "openapi-python-client warned about the document (above)"
fi
[[ -d $OUT/python/jobgraph_openapi_client ]] || fail "no package generated"

step "importing every generated module"
PYTHONPATH="$OUT/python" "$VENV/bin/python" - <<'EOF'
import importlib, pkgutil
import jobgraph_openapi_client as package
names = [m.name for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]
for name in names:
    importlib.import_module(name)
print(f"{len(names)} modules import")
EOF

step "tests/openapi-clients/python_client.py against $BASE"
JOBGRAPH_BASE_URL=$BASE JOBGRAPH_CLIENT_ID=$CLIENT_ID JOBGRAPH_CLIENT_SECRET=$CLIENT_SECRET \
    JOBGRAPH_ORG=$ORG PYTHONPATH="$OUT/python" \
    "$VENV/bin/python" tests/openapi-clients/python_client.py

# --- 3. TypeScript types ---------------------------------------------------------------
step "openapi-typescript -> $OUT/ts/jobgraph-api.ts"
# `{"type": "object"}` (any object: an input schema, a vertex's fields) is `Record<string,
# never>` by default, i.e. an empty object; the flag reads it as JSON Schema does.
# (Last: before the input file, the CLI would take the file name as the flag's value.)
node_modules/.bin/openapi-typescript "$OUT/openapi.json" -o "$OUT/ts/jobgraph-api.ts" \
    --empty-objects-unknown
cp tests/openapi-clients/typed-use.ts "$OUT/ts/typed-use.ts"
step "tsc --strict --noEmit typed-use.ts"
node_modules/.bin/tsc --strict --noEmit --target es2022 --module esnext \
    --moduleResolution bundler --lib es2022 \
    "$OUT/ts/typed-use.ts" || fail "typed-use.ts does not compile against the generated types"

echo "OK: the document is valid OpenAPI 3.1, and both generated clients work with it"
