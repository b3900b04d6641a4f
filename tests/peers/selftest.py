#!/usr/bin/env python3
"""Self-test of tests/peers/: runs each sender against vendor_receiver.py, and otelcol-contrib
(run_otelcol.py) tailing a file into vendor_receiver.py --kind otlp, and checks what arrived.
Uses only 127.0.0.1 and a temporary directory; takes about 15 s.

    target/peers-venv/bin/python tests/peers/selftest.py [--keep] [--verbose]

Prints each step's summary line on stderr and, at the end, one JSON line on stdout:
    {"tool":"selftest","ok":true,"passed":N,"failed":0,"steps":{"datadog":"ok",...}}
and the plain line "N passed, 0 failed". Exit 0 when every step passed.
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PY = sys.executable


def script(name):
    return os.path.join(HERE, name)


class Receiver:
    def __init__(self, tmp, kind, *extra):
        self.out = os.path.join(tmp, f"{kind}-{len(os.listdir(tmp))}.jsonl")
        self.proc = subprocess.Popen([PY, script("vendor_receiver.py"), "--kind", kind, "--out", self.out, *extra],
                                     stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"vendor_receiver --kind {kind} did not start")
        self.port = json.loads(line)["port"]

    def lines(self):
        if not os.path.exists(self.out):
            return []
        with open(self.out) as f:
            return [json.loads(l) for l in f if l.strip()]

    def items(self):
        return [l["item"] for l in self.lines() if "item" in l]

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(10)


def run(argv, expect_rc=0):
    res = subprocess.run([PY, *argv], capture_output=True, text=True, timeout=120)
    sys.stderr.write(f"  $ {os.path.basename(argv[0])} {' '.join(argv[1:])}\n  -> {res.stdout.strip()}\n")
    if res.returncode != expect_rc:
        raise AssertionError(f"exit {res.returncode} (wanted {expect_rc}); stderr: {res.stderr.strip()[-800:]}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def step_datadog(tmp):
    r = Receiver(tmp, "datadog", "--expect-key", "K1", "--fail-first", "0")
    try:
        s = run([script("send_datadog.py"), "--url", f"http://127.0.0.1:{r.port}", "--api-key", "K1", "--count", "25",
                 "--batch", "10", "--gzip", "--service", "svc", "--source", "src", "--host", "h1",
                 "--tags", "env:test,team:a", "--message-prefix", "dd"])
        check(s["ok"] and s["sent"] == 25 and s["statuses"] == [202, 202, 202], f"summary {s}")
        items = r.items()
        check([i["message"] for i in items] == [f"dd {n}" for n in range(25)], "messages")
        check(all(i["service"] == "svc" and i["ddtags"] == "env:test,team:a" for i in items), "fields")
        check(all(l["headers"].get("content-encoding") == "gzip" for l in r.lines()), "gzip")
        s = run([script("send_datadog.py"), "--url", f"http://127.0.0.1:{r.port}", "--api-key", "bad",
                 "--count", "1", "--expect-status", "403"])
        check(s["ok"] and s["statuses"] == [403], f"summary {s}")
    finally:
        r.stop()


def step_datadog_faults(tmp):
    r = Receiver(tmp, "datadog", "--fail-first", "1", "--fail-status", "503", "--retry-after", "1",
                 "--permanent-match", "POISON", "--permanent-status", "400")
    try:
        run([script("send_datadog.py"), "--url", f"http://127.0.0.1:{r.port}", "--api-key", "k", "--count", "1",
             "--expect-status", "503"])
        run([script("send_datadog.py"), "--url", f"http://127.0.0.1:{r.port}", "--api-key", "k", "--count", "1",
             "--message-prefix", "POISON", "--expect-status", "400"])
        run([script("send_datadog.py"), "--url", f"http://127.0.0.1:{r.port}", "--api-key", "k", "--count", "2"])
        reasons = [l.get("reason") or ("item" if "item" in l else "?") for l in r.lines()]
        check(reasons == ["fail-first", "permanent-match", "item", "item"], f"lines {reasons}")
    finally:
        r.stop()


def step_otlp(tmp, json_mode):
    r = Receiver(tmp, "otlp", "--expect-key", "K2", "--fail-first", "1", "--retry-after", "0")
    try:
        argv = [script("send_otlp.py"), "--endpoint", f"http://127.0.0.1:{r.port}/v1/logs",
                "--header", "Authorization=Bearer K2", "--count", "10", "--gzip", "--message-prefix", "ot"]
        s = run(argv + (["--json"] if json_mode else []))
        check(s["ok"] and s["exported"] == 10, f"summary {s}")
        items = r.items()
        check(sorted(i["log_record"]["body"]["stringValue"] for i in items) == sorted(f"ot {n}" for n in range(10)),
              "bodies")
        by_seq = {}
        for i in items:
            attrs = {a["key"]: a["value"] for a in i["log_record"]["attributes"]}
            by_seq[int(attrs["seq"]["intValue"])] = i["log_record"]
        for sp in s["spans"]:
            check(by_seq[sp["seq"]].get("traceId") == sp["trace_id"], f"trace id of {sp['seq']}")
        check(by_seq[3]["severityNumber"] == 17, "ERROR is severity 17")
        want_ct = "application/json" if json_mode else "application/x-protobuf"
        check(all(l["headers"].get("content-type") == want_ct for l in r.lines()), "content-type")
        check(r.lines()[0].get("reason") == "fail-first", "the first request was refused and retried")
    finally:
        r.stop()


def step_splunk(tmp):
    r = Receiver(tmp, "splunk", "--expect-key", "T")
    try:
        s = run([script("send_hec.py"), "--url", f"http://127.0.0.1:{r.port}", "--token", "T", "--count", "6",
                 "--sourcetype", "_json", "--message-prefix", "hec"])
        check(s["ok"] and s["statuses"] == [200] * 6, f"summary {s}")
        items = r.items()
        check([i["event"]["message"] for i in items] == [f"hec {n}" for n in range(6)], "messages")
        check(items[1]["fields"] == {"seq": "1", "parity": "odd"}, f"fields {items[1]}")
        s = run([script("send_hec.py"), "--url", f"http://127.0.0.1:{r.port}", "--token", "bad", "--count", "1"],
                expect_rc=1)
        check(s["statuses"] == [403], f"summary {s}")
    finally:
        r.stop()


def step_otelcol(tmp):
    r = Receiver(tmp, "otlp", "--expect-key", "K3")
    log = os.path.join(tmp, "app.log")
    with open(log, "w") as f:
        f.write('{"level":"info","msg":"first"}\n')
    workdir = os.path.join(tmp, "otelcol")
    proc = subprocess.Popen([PY, script("run_otelcol.py"), "--log-file", log,
                             "--endpoint", f"http://127.0.0.1:{r.port}/v1/logs",
                             "--header", "Authorization=Bearer K3", "--workdir", workdir,
                             "--resource", "service.name=tailed", "--parser", "json", "--severity-field", "level"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        head = json.loads(proc.stdout.readline())
        sys.stderr.write(f"  $ run_otelcol.py ...\n  -> {json.dumps(head)}\n")
        check(head["ok"] and head["pid"] == proc.pid, "exec kept the pid")
        time.sleep(1.5)
        with open(log, "a") as f:
            f.write('{"level":"error","msg":"second"}\n')
        deadline = time.time() + 20
        while time.time() < deadline and len(r.items()) < 2:
            time.sleep(0.2)
        items = r.items()
        msgs = [{a["key"]: a["value"] for a in i["log_record"]["attributes"]}["msg"]["stringValue"] for i in items]
        check(msgs == ["first", "second"], f"messages {msgs}")
        check([i["log_record"].get("severityNumber") for i in items] == [9, 17], "severities")
        check(items[0]["resource"]["attributes"][0]["value"]["stringValue"] == "tailed", "resource")
    finally:
        proc.terminate()
        proc.wait(10)
        r.stop()


def main():
    p = argparse.ArgumentParser(description="Run every peer script against vendor_receiver.py on 127.0.0.1.")
    p.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = p.parse_args()
    tmp = tempfile.mkdtemp(prefix="peers-selftest-")
    steps = {
        "datadog": lambda: step_datadog(tmp),
        "datadog_faults": lambda: step_datadog_faults(tmp),
        "otlp_protobuf": lambda: step_otlp(tmp, False),
        "otlp_json": lambda: step_otlp(tmp, True),
        "splunk": lambda: step_splunk(tmp),
        "otelcol": lambda: step_otelcol(tmp),
    }
    results = {}
    for name, fn in steps.items():
        sys.stderr.write(f"selftest: {name}\n")
        try:
            fn()
            results[name] = "ok"
        except Exception as err:  # noqa: BLE001
            results[name] = f"FAILED: {type(err).__name__}: {err}"
            sys.stderr.write(f"selftest: {name} {results[name]}\n")
    if args.keep:
        sys.stderr.write(f"selftest: kept {tmp}\n")
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    failed = sum(1 for v in results.values() if v != "ok")
    passed = len(results) - failed
    print(json.dumps({"tool": "selftest", "ok": failed == 0, "passed": passed, "failed": failed, "steps": results}))
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
