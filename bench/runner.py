#!/usr/bin/env python3
"""The job runner's figures (issue 38; bench/RESULTS.md "Running jobs"), against the release
`jobgraph serve` on SQLite with the runner's default settings:

  1. throughput: a streaming job `lake source (STREAM) -> logs-filter -> log-reducer -> lake
     sink` fed by one load of N events (default 1 000 000, bench/lake-gen.py over one day):
     the load's rate, the job's rate from the load's commit until it has read every event,
     and how long after that the sink's rows are visible (its last checkpoint);
  2. lifecycle: `desiredState` STOPPED then RUNNING, and an update N -> N+1, each timed from
     the PUT's answer until the version is in its state (5 rounds);
  3. cost: RSS with 1 and with J (default 50) idle running jobs of that kind, and the CPU
     the J idle jobs take over 30 s.

Usage: python3 bench/runner.py [N] [J]   (needs target/release/jobgraph:
       cargo build --release -p jobgraph-cli --bin jobgraph)
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

N = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
J = int(sys.argv[2]) if len(sys.argv) > 2 else 50
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target/release/jobgraph")
WORK = os.path.join(ROOT, "target/runner-bench")
os.makedirs(WORK, exist_ok=True)


def start(data):
    config = os.path.join(data, "config.json")
    with open(config, "w") as f:
        # Defaults, but room for J jobs of one organization.
        json.dump({"runner": {"jobsPerOrganization": max(J + 10, 20), "maxJobs": max(J + 10, 200)}}, f)
    out = open(os.path.join(data, "stdout"), "w")
    err = open(os.path.join(data, "stderr"), "w")
    proc = subprocess.Popen(
        [BIN, "serve", "--addr", "127.0.0.1:0", "--data", os.path.join(data, "db"),
         "--config", config, "--client", "bench:bench-secret:bench"],
        stdout=out, stderr=err)
    for _ in range(400):
        try:
            text = open(os.path.join(data, "stdout")).read()
        except FileNotFoundError:
            text = ""
        if "\nready" in text or text.startswith("ready"):
            break
        time.sleep(0.05)
    url = [l for l in text.splitlines() if l.startswith("listening on ")][0].split()[2]
    return proc, url


def call(url, method, path, token=None, body=None, raw=None, ctype="application/json"):
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request(url + path, data=data, method=method)
    if token:
        req.add_header("Authorization", "Bearer " + token)
    if data is not None:
        req.add_header("Content-Type", ctype)
    with urllib.request.urlopen(req, timeout=600) as r:
        text = r.read()
        return json.loads(text) if text.strip() else None


def token_of(url):
    return call(url, "POST", "/oauth/token", body={
        "client_id": "bench", "client_secret": "bench-secret",
        "audience": "service", "grant_type": "client_credentials"})["access_token"]


def job_body(name, source, sink, query="NOT level:debug"):
    return {"name": name, "execution": "ASYNCHRONOUS", "processing": "STREAMING",
            "jobGraph": {"vertices": [
                {"type": "logs-iceberg-table-source", "name": "in", "datasetId": source,
                 "processing": "STREAM"},
                {"type": "logs-filter", "name": "keep",
                 "query": {"type": "simple-query", "query": query}},
                {"type": "log-reducer", "name": "reduce"},
                {"type": "logs-iceberg-table-sink", "name": "out", "datasetId": sink}],
                "edges": ["in -> keep", "keep -> reduce", "reduce -> out"]}}


def wait_state(url, token, job, version, state, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        j = call(url, "GET", f"/v1/jobs/{job}?version={version}", token)
        if j["state"] == state:
            return j
        time.sleep(0.01)
    raise SystemExit(f"job {job} v{version} never reached {state}: {j}")


def rss_kb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def throughput_and_lifecycle():
    events = os.path.join(WORK, f"events-{N}.ndjson")
    if not os.path.exists(events):
        with open(events + ".tmp", "w") as f:
            subprocess.run([sys.executable, os.path.join(ROOT, "bench/lake-gen.py"), str(N), "1",
                            "2026-11-25T00:00:00Z"], stdout=f, check=True)
        os.rename(events + ".tmp", events)
    with tempfile.TemporaryDirectory(dir=WORK) as data:
        proc, url = start(data)
        try:
            token = token_of(url)
            src = call(url, "POST", "/v1/datasets", token, {"name": "in"})["id"]
            dst = call(url, "POST", "/v1/datasets", token, {"name": "out"})["id"]
            job = call(url, "POST", "/v1/jobs", token, job_body("reduce-stream", src, dst))["id"]
            wait_state(url, token, job, 1, "RUNNING")
            body = open(events, "rb").read()
            t0 = time.time()
            call(url, "POST", f"/v1/datasets/{src}/load", token, raw=body, ctype="application/x-ndjson")
            t1 = time.time()
            while True:
                status = call(url, "GET", f"/v1/jobs/{job}", token)["pipelineStatus"]
                if status.get("eventsIn", 0) >= N:
                    break
                time.sleep(0.05)
            t2 = time.time()
            out_events = status["eventsOut"]
            while True:
                files = call(url, "GET", f"/v1/datasets/{dst}/files?limit=1000", token)["items"]
                if sum(f["rows"] for f in files) >= out_events:
                    break
                time.sleep(0.05)
            t3 = time.time()
            print(f"load: {N} events in {t1 - t0:.2f} s = {N / (t1 - t0):,.0f} events/s")
            print(f"job: read {N} events {t2 - t1:.2f} s after the load's commit = "
                  f"{N / (t2 - t1):,.0f} events/s; {out_events} events out "
                  f"({N / max(out_events, 1):.1f}x reduction)")
            print(f"end to end (load start to every event read): {N / (t2 - t0):,.0f} events/s")
            print(f"sink rows visible to queries {t3 - t1:.2f} s after the load's commit "
                  f"(the job's counters are written with its checkpoints)")
            print(f"RSS after the run: {rss_kb(proc.pid) / 1024:.0f} MiB")
            rounds = {"STOPPED": [], "RUNNING": [], "update": []}
            version = 1
            for i in range(5):
                for desired in ("STOPPED", "RUNNING"):
                    t = time.time()
                    version = call(url, "PUT", f"/v1/jobs/{job}", token,
                                   {"desiredState": desired})["version"]
                    wait_state(url, token, job, version, desired)
                    rounds[desired].append(time.time() - t)
                query = "NOT level:debug" if i % 2 else "NOT level:trace"
                t = time.time()
                body = job_body("reduce-stream", src, dst, query)
                del body["execution"], body["processing"]
                version = call(url, "PUT", f"/v1/jobs/{job}", token, body)["version"]
                wait_state(url, token, job, version, "RUNNING")
                rounds["update"].append(time.time() - t)
            for what, times in rounds.items():
                print(f"{what}: median {statistics.median(times) * 1000:.0f} ms, "
                      f"max {max(times) * 1000:.0f} ms (5 rounds)")
        finally:
            proc.kill()


def idle_cost():
    with tempfile.TemporaryDirectory(dir=WORK) as data:
        proc, url = start(data)
        try:
            token = token_of(url)
            src = call(url, "POST", "/v1/datasets", token, {"name": "idle-in"})["id"]
            dst = call(url, "POST", "/v1/datasets", token, {"name": "idle-out"})["id"]
            time.sleep(2)
            base = rss_kb(proc.pid)
            first = call(url, "POST", "/v1/jobs", token, job_body("idle-0", src, dst))["id"]
            wait_state(url, token, first, 1, "RUNNING")
            time.sleep(3)
            one = rss_kb(proc.pid)
            jobs = [first]
            for i in range(1, J):
                jobs.append(call(url, "POST", "/v1/jobs", token, job_body(f"idle-{i}", src, dst))["id"])
            for job in jobs:
                wait_state(url, token, job, 1, "RUNNING")
            time.sleep(3)
            many = rss_kb(proc.pid)
            c0, t0 = cpu_seconds(proc.pid), time.time()
            time.sleep(30)
            c1, t1 = cpu_seconds(proc.pid), time.time()
            print(f"RSS: no job {base / 1024:.0f} MiB, 1 running job {one / 1024:.0f} MiB, "
                  f"{J} running jobs {many / 1024:.0f} MiB "
                  f"({(many - one) / 1024 / max(J - 1, 1):.2f} MiB per further job)")
            print(f"{J} idle running jobs: {(c1 - c0) / (t1 - t0) * 100:.2f} % of a core over "
                  f"{t1 - t0:.0f} s")
            # Each job now reads 20 000 events: a reducer's patterns and windows held each.
            more = os.path.join(WORK, "events-20000.ndjson")
            if not os.path.exists(more):
                with open(more, "w") as f:
                    subprocess.run([sys.executable, os.path.join(ROOT, "bench/lake-gen.py"),
                                    "20000", "1", "2026-11-25T00:00:00Z"], stdout=f, check=True)
            call(url, "POST", f"/v1/datasets/{src}/load", token, raw=open(more, "rb").read(),
                 ctype="application/x-ndjson")
            t = time.time()
            for job in jobs:
                while call(url, "GET", f"/v1/jobs/{job}", token)["pipelineStatus"].get("eventsIn", 0) < 20000:
                    time.sleep(0.1)
            print(f"{J} jobs read 20 000 events each in {time.time() - t:.1f} s "
                  f"({J * 20000 / (time.time() - t):,.0f} events/s together); "
                  f"RSS {rss_kb(proc.pid) / 1024:.0f} MiB")
        finally:
            proc.kill()


if __name__ == "__main__":
    throughput_and_lifecycle()
    idle_cost()
