"""Helpers shared by the peer scripts in tests/peers/ (imported from the script's own folder).

Each script prints exactly one JSON line on stdout when it ends (its summary; vendor_receiver.py
prints `{"port": P}` when it starts instead), writes diagnostics to stderr, and exits 0 on success,
1 on failure, 2 on bad arguments (argparse).
"""

import json
import sys

VENV_HINT = (
    "run it with target/peers-venv/bin/python (created by scripts/setup.sh), "
    "which has the pinned peer libraries"
)


def summary(obj):
    """Print the one-line JSON summary on stdout and flush."""
    sys.stdout.write(json.dumps(obj, separators=(",", ":"), default=str) + "\n")
    sys.stdout.flush()


def fail(tool, message, /, **extra):
    """Report a failure: a clear message on stderr, the summary with ok=false, exit 1."""
    sys.stderr.write(f"{tool}: error: {message}\n")
    sys.stderr.flush()
    out = {"tool": tool, "ok": False, "error": message}
    out.update(extra)
    summary(out)
    sys.exit(1)


def import_or_die(tool, what):
    """Import the real library or exit 1 telling how to get it."""
    import importlib

    try:
        return importlib.import_module(what)
    except ImportError as err:  # pragma: no cover - environment problem
        fail(tool, f"cannot import {what} ({err}); {VENV_HINT}")


def parse_kv(values, flag, sep="="):
    """["K=V", ...] -> {K: V}; V may itself contain the separator."""
    out = {}
    for value in values or []:
        if sep not in value:
            raise SystemExit(f"{flag} expects KEY{sep}VALUE, got {value!r}")
        key, val = value.split(sep, 1)
        key = key.strip()
        if not key:
            raise SystemExit(f"{flag} expects KEY{sep}VALUE, got {value!r}")
        out[key] = val.strip()
    return out
