#!/usr/bin/env python3
"""Intake and delivery figures (issue 39; bench/RESULTS.md "Intake and delivery"), against two
release `jobgraph serve` processes on this machine:

  A: takes Datadog-format logs (gzip, 1000 events a request) on `dd-in`, and runs the
     streaming job `datadog-log-agent-source -> log-reducer -> datadog-log-sink`, delivering
     to B's Datadog intake;
  B: takes them (its intake log trimmed after 5 s: nothing reads it).

  1. throughput: S seconds (default 60) of load into A from C concurrent senders (default 4)
     as fast as A answers: A's intake rate (events answered 202 per second), A's job's rate
     (events it read per second, from pipelineStatus) and whether it kept up (how far behind
     it was at the end, and how long it took to catch up), what it delivered to B;
  2. latency: S/2 seconds paced at 25 000 events/s, then at half the rate of 1: the intake's
     answer times (p50, p99, max) while the job reads what it takes;
  2b. relay: S seconds into a second job `datadog-log-agent-source -> datadog-log-sink` (no
     reducer: every event goes on to B): A's intake rate, and the rate end to end (events B
     took per second until the last was delivered).
  3. outage: B stopped for O seconds (default 60) under a paced load of 10 000 events/s into
     A's relay job, then started again on the same port: every event A took reaches B
     (counted by B's intake since its restart), none lost; duplicates counted.

Usage: python3 bench/intake.py [S] [C] [O]   (needs target/release/jobgraph:
       cargo build --release -p jobgraph-cli --bin jobgraph)
"""
import gzip
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

S = int(sys.argv[1]) if len(sys.argv) > 1 else 60
C = int(sys.argv[2]) if len(sys.argv) > 2 else 4
O = int(sys.argv[3]) if len(sys.argv) > 3 else 60
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target/release/jobgraph")
WORK = os.path.join(ROOT, "target/intake-bench")
os.makedirs(WORK, exist_ok=True)
KEY_A = "bench-ingest-key-a-0123456789"
KEY_B = "bench-ingest-key-b-0123456789"
KEY_R = "bench-ingest-key-r-0123456789"
PER_REQUEST = 1000


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def start(data, port, config, taskset=None):
    os.makedirs(data, exist_ok=True)
    path = os.path.join(data, "..", os.path.basename(data) + "-config.json")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump(config, f)
    err = open(data + ".stderr", "a")
    cmd = [BIN, "serve", "--addr", f"127.0.0.1:{port}", "--data", data, "--config", path,
           "--client", "bench:bench-secret:acme"]
    if taskset:
        cmd = ["taskset", "-c", taskset] + cmd
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, text=True)
    for line in proc.stdout:
        if "listening" in line:
            break
    return proc


def call(port, method, path, token=None, body=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method, headers=headers)
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read() or b"null")


def token(port):
    data = b"grant_type=client_credentials&client_id=bench&client_secret=bench-secret"
    req = urllib.request.Request(f"http://127.0.0.1:{port}/oauth/token", data=data,
                                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())["access_token"]


TEMPLATES = [
    "GET /api/users/{n} 200 {ms}ms",
    "POST /api/orders/{n} 201 {ms}ms",
    "user u{n} logged in from 10.0.{a}.{b}",
    "cache miss for key session:{n}",
    "disk usage {pct}% on /dev/sda{d}",
    "payment {n} declined: insufficient funds",
    "connection from 192.168.{a}.{b}:{port} closed after {ms}ms",
    "worker {d} processed batch {n} in {ms}ms",
]


def bodies(count):
    rnd = random.Random(7)
    out = []
    for _ in range(count):
        items = []
        for _ in range(PER_REQUEST):
            t = rnd.choice(TEMPLATES)
            message = t.format(n=rnd.randint(1, 10**6), ms=rnd.randint(1, 900), a=rnd.randint(0, 255),
                               b=rnd.randint(0, 255), pct=rnd.randint(1, 99), d=rnd.randint(0, 7),
                               port=rnd.randint(1024, 65535))
            items.append({"message": message, "service": f"svc-{rnd.randint(0, 9)}",
                          "hostname": f"host-{rnd.randint(0, 49)}", "ddsource": "bench",
                          "status": rnd.choice(["info", "info", "info", "warn", "error"]),
                          "ddtags": "env:bench,team:core"})
        out.append(gzip.compress(json.dumps(items).encode(), 1))
    return out


class Load:
    """C senders posting prebuilt bodies to A's intake; `rate`: events/s in all, or None."""

    def __init__(self, port, payloads, seconds, senders, rate=None, key=KEY_A):
        self.port, self.payloads, self.seconds, self.senders, self.rate = port, payloads, seconds, senders, rate
        self.key = key
        self.latencies, self.statuses, self.taken = [], {}, 0
        self.lock = threading.Lock()

    def sender(self, i, start):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        n = 0
        interval = (self.senders * PER_REQUEST / self.rate) if self.rate else 0
        while True:
            now = time.monotonic()
            if now - start >= self.seconds:
                break
            if interval:
                due = start + (n + i / self.senders) * interval
                if due > now:
                    time.sleep(due - now)
            body = self.payloads[(i * 7919 + n) % len(self.payloads)]
            t0 = time.monotonic()
            try:
                conn.request("POST", "/api/v2/logs", body, {"DD-API-KEY": self.key, "Content-Encoding": "gzip",
                                                           "Content-Type": "application/json"})
                r = conn.getresponse()
                r.read()
                status = r.status
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
                status = 0
            dt = time.monotonic() - t0
            with self.lock:
                self.latencies.append(dt)
                self.statuses[status] = self.statuses.get(status, 0) + 1
                if status == 202:
                    self.taken += PER_REQUEST
            n += 1

    def run(self):
        start = time.monotonic()
        threads = [threading.Thread(target=self.sender, args=(i, start)) for i in range(self.senders)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return time.monotonic() - start


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))] * 1000 if values else 0


def status_of(port, tok, job):
    return call(port, "GET", f"/v1/jobs/{job}", tok)["pipelineStatus"]


def integration(port, tok, ident):
    return call(port, "GET", f"/v1/integrations/{ident}", tok)


def main():
    if not os.path.exists(BIN):
        sys.exit(f"{BIN} is missing: cargo build --release -p jobgraph-cli --bin jobgraph")
    work = tempfile.mkdtemp(dir=WORK)
    port_a, port_b = free_port(), free_port()
    b_config = {"integrations": [{"id": "dd-in", "name": "in", "type": "datadog", "ingestKey": KEY_B}],
                "intake": {"unreadRetentionMs": 5000, "trimMs": 1000}}
    a_config = {"integrations": [
        {"id": "dd-in", "name": "in", "type": "datadog", "ingestKey": KEY_A},
        {"id": "dd-relay", "name": "relay", "type": "datadog", "ingestKey": KEY_R},
        {"id": "dd-out", "name": "out", "type": "datadog", "deliveryUrl": f"http://127.0.0.1:{port_b}",
         "deliveryKey": KEY_B}]}
    b = start(os.path.join(work, "b"), port_b, b_config)
    a = start(os.path.join(work, "a"), port_a, a_config)
    ta, tb = token(port_a), token(port_b)
    job = call(port_a, "POST", "/v1/jobs", ta, {
        "name": "reduce-and-forward", "execution": "ASYNCHRONOUS", "processing": "STREAMING",
        "jobGraph": {"vertices": [
            {"type": "datadog-log-agent-source", "name": "agents", "integrationId": "dd-in"},
            {"type": "log-reducer", "name": "reduce"},
            {"type": "datadog-log-sink", "name": "datadog", "integrationId": "dd-out"}],
            "edges": ["agents -> reduce", "reduce -> datadog"]}})["id"]
    relay = call(port_a, "POST", "/v1/jobs", ta, {
        "name": "forward", "execution": "ASYNCHRONOUS", "processing": "STREAMING",
        "jobGraph": {"vertices": [
            {"type": "datadog-log-agent-source", "name": "agents", "integrationId": "dd-relay"},
            {"type": "datadog-log-sink", "name": "datadog", "integrationId": "dd-out"}],
            "edges": ["agents -> datadog"]}})["id"]
    for j in (job, relay):
        while call(port_a, "GET", f"/v1/jobs/{j}", ta)["state"] != "RUNNING":
            time.sleep(0.1)
    payloads = bodies(64)
    print(f"# {C} senders, {PER_REQUEST} events a request (gzip, {sum(map(len, payloads)) // len(payloads)} bytes)")

    # 1. Throughput.
    load = Load(port_a, payloads, S, C)
    before = status_of(port_a, ta, job)["eventsIn"]
    elapsed = load.run()
    at_end = status_of(port_a, ta, job)["eventsIn"] - before
    state = call(port_a, "GET", f"/v1/jobs/{job}", ta)
    if state["state"] != "RUNNING":
        sys.exit(f"the job is {state['state']}: {state['pipelineStatus'].get('message')}")
    caught = time.monotonic()
    while status_of(port_a, ta, job)["eventsIn"] - before < load.taken and time.monotonic() - caught < 600:
        time.sleep(0.2)
    catch_up = time.monotonic() - caught
    rate = load.taken / elapsed
    print(f"throughput: intake {rate:,.0f} events/s ({load.taken:,} in {elapsed:.1f} s, statuses {load.statuses}); "
          f"job read {at_end / elapsed:,.0f} events/s during the load, {load.taken - at_end:,} behind at its end, "
          f"caught up {catch_up:.1f} s later; intake p50 {pct(load.latencies, .5):.1f} ms p99 {pct(load.latencies, .99):.1f} ms")
    time.sleep(3)
    s = status_of(port_a, ta, job)
    d = (s.get("delivery") or [{}])[0]
    print(f"  delivered to B: {d.get('delivered')} events in {d.get('requests')} requests "
          f"(the reducer's output), retries {d.get('retries')}, B took {integration(port_b, tb, 'dd-in').get('eventsTaken')}")

    # 2. Latency at 25 000 events/s (half the 50 000) and at half the rate of 1.
    for paced in (25_000, rate / 2):
        load = Load(port_a, payloads, max(S // 2, 10), C, rate=paced)
        elapsed = load.run()
        print(f"latency at {paced:,.0f} events/s: {load.taken / elapsed:,.0f} taken/s, p50 {pct(load.latencies, .5):.1f} ms, "
              f"p99 {pct(load.latencies, .99):.1f} ms, max {pct(load.latencies, 1):.1f} ms, statuses {load.statuses}")
        time.sleep(3)

    # 2b. Relay: every event delivered to B (no reducer), as fast as A answers.
    taken_b = integration(port_b, tb, "dd-in").get("eventsTaken", 0)
    load = Load(port_a, payloads, S, C, key=KEY_R)
    elapsed = load.run()
    t0 = time.monotonic()
    while True:
        d = (status_of(port_a, ta, relay).get("delivery") or [{}])[0]
        if d.get("delivered", 0) >= load.taken or time.monotonic() - t0 > 600:
            break
        time.sleep(0.2)
    drained = time.monotonic() - t0
    got = integration(port_b, tb, "dd-in").get("eventsTaken", 0) - taken_b
    print(f"relay (no reducer): intake {load.taken / elapsed:,.0f} events/s ({load.taken:,} in {elapsed:.1f} s, {load.statuses}); "
          f"delivered {d.get('delivered'):,} in {d.get('requests'):,} requests, the last {drained:.1f} s after the load: "
          f"{d.get('delivered', 0) / (elapsed + drained):,.0f} events/s end to end; B took {got:,}; retries {d.get('retries')}")

    # 3. Outage of B under 10 000 events/s (the relay job: every event goes to B).
    time.sleep(3)
    delivered_before = (status_of(port_a, ta, relay).get("delivery") or [{}])[0].get("delivered", 0)
    b.kill()
    b.wait()
    load = Load(port_a, payloads, O, 2, rate=10_000, key=KEY_R)
    outage = threading.Thread(target=load.run)
    outage.start()
    outage.join()
    s = status_of(port_a, ta, relay)
    d = (s.get("delivery") or [{}])[0]
    print(f"outage: B down {O} s under 10 000 events/s: A took {load.taken:,} ({load.statuses}); delivery "
          f"failing since {d.get('failingSince')}, retries {d.get('retries')}")
    b = start(os.path.join(work, "b"), port_b, b_config)
    tb = token(port_b)
    t0 = time.monotonic()
    while True:
        d = (status_of(port_a, ta, relay).get("delivery") or [{}])[0]
        if d.get("delivered", 0) - delivered_before >= load.taken or time.monotonic() - t0 > 600:
            break
        time.sleep(0.5)
    recovered = time.monotonic() - t0
    time.sleep(2)
    d = (status_of(port_a, ta, relay).get("delivery") or [{}])[0]
    sent = d.get("delivered", 0) - delivered_before
    got = integration(port_b, tb, "dd-in").get("eventsTaken", 0)
    print(f"  after B came back: A delivered {sent:,} of the {load.taken:,} taken during the outage "
          f"in {recovered:.1f} s; B took {got:,} since its restart: lost {max(load.taken - got, 0):,}, "
          f"duplicates {max(got - load.taken, 0):,}; dead letters {d.get('deadLetters')}")
    a.kill()
    b.kill()


if __name__ == "__main__":
    main()
