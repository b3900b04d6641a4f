#!/usr/bin/env python3
"""Intake on NATS JetStream (issue 39; bench/RESULTS.md "Intake on JetStream"): release
`jobgraph serve` replicas with `intake.nats` on one `nats-server -js` and, for two replicas,
one PostgreSQL database (`scripts/pg-cluster.sh`), each replica pinned to a core of its own
with `taskset`; a second, unpinned service (B) takes what they deliver.

  1. one replica (taskset -c 0): S seconds (default 60) of Datadog-format load (gzip, 1000
     events a request) from C senders (default 4) as fast as it answers, into the job
     `datadog-log-agent-source -> log-reducer -> datadog-log-sink` (to B): the intake rate,
     the job's read rate, p99; then paced at 25 000 events/s: p50/p99;
  2. two replicas (taskset -c 0 and -c 1) on one database: the same senders split between
     them; the same figures (the job runs on one replica, which reads what both take);
  3. the same two replicas with the stream in 2 partitions by `service` and the reducer
     partitioning by `service`: the job runs as two shards, one on each replica (core).

Usage: [BENCH_ONLY=partitions] python3 bench/intake_jetstream.py [S] [C]
  needs target/release/jobgraph (cargo build --release -p jobgraph-cli --bin jobgraph),
  target/peers-venv/bin/nats-server (scripts/setup.sh) and, for 2, JOBGRAPH_TEST_DATABASE_URL
  (bash scripts/pg-cluster.sh start /tmp/pgc prints it).
"""
import os
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import intake as base  # noqa: E402  (the loads, the calls, the service starter)

S = int(sys.argv[1]) if len(sys.argv) > 1 else 60
C = int(sys.argv[2]) if len(sys.argv) > 2 else 4
NATS = os.path.join(base.ROOT, "target/peers-venv/bin/nats-server")
# BENCH_ONLY=partitions: only the third scenario.
PARTITIONS_ONLY = os.environ.get("BENCH_ONLY") == "partitions"


def nats(work):
    port = base.free_port()
    proc = subprocess.Popen([NATS, "-js", "-a", "127.0.0.1", "-p", str(port), "-sd", os.path.join(work, "nats")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            import socket
            with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                if s.recv(4).startswith(b"INFO"):
                    return proc, f"nats://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.05)
    sys.exit("nats-server did not start")


def database(url):
    name = f"jg_bench_{os.getpid()}_{int(time.time())}"
    subprocess.run(["psql", url, "-qtA", "-c", f"CREATE DATABASE {name}"], check=True)
    return url.rsplit("/", 1)[0] + "/" + name


def replica_config(nats_url, port_b, stream, partitions=1):
    return {"integrations": [
        {"id": "dd-in", "name": "in", "type": "datadog", "ingestKey": base.KEY_A},
        {"id": "dd-out", "name": "out", "type": "datadog", "deliveryUrl": f"http://127.0.0.1:{port_b}",
         "deliveryKey": base.KEY_B}],
        "intake": {"nats": {"url": nats_url, "stream": stream, "subjectPrefix": stream.lower(),
                            "partitions": partitions, "partitionByTags": ["service"]}}}


def start_replica(work, name, port, config, core, db=None):
    data = os.path.join(work, name)
    os.makedirs(data, exist_ok=True)
    path = os.path.join(work, name + "-config.json")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        import json
        json.dump(config, f)
    cmd = ["taskset", "-c", str(core), base.BIN, "serve", "--addr", f"127.0.0.1:{port}", "--data", data,
           "--config", path, "--client", "bench:bench-secret:acme", "--lake", "file://" + os.path.join(work, "lake")]
    if db:
        cmd += ["--database", db]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=open(data + ".stderr", "a"), text=True)
    for line in proc.stdout:
        if "listening" in line:
            break
    threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()
    return proc


class Split:
    """`base.Load` over several replicas: C senders shared between the ports."""

    def __init__(self, ports, payloads, seconds, senders, rate=None):
        each = max(senders // len(ports), 1)
        share = rate / len(ports) if rate else None
        self.loads = [base.Load(p, payloads, seconds, each, rate=share) for p in ports]

    def run(self):
        threads = [threading.Thread(target=load.run) for load in self.loads]
        t0 = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.monotonic() - t0
        taken = sum(load.taken for load in self.loads)
        latencies = [x for load in self.loads for x in load.latencies]
        statuses = {}
        for load in self.loads:
            for k, v in load.statuses.items():
                statuses[k] = statuses.get(k, 0) + v
        return elapsed, taken, latencies, statuses


def scenario(label, ports, payloads, tok, job):
    status = lambda: base.status_of(ports[0], tok, job)  # noqa: E731
    before = status()["eventsIn"]
    elapsed, taken, latencies, statuses = Split(ports, payloads, S, C).run()
    during = status()["eventsIn"] - before
    t0 = time.monotonic()
    while status()["eventsIn"] - before < taken and time.monotonic() - t0 < 600:
        time.sleep(0.2)
    catch_up = time.monotonic() - t0
    rate = taken / elapsed
    print(f"{label}: intake {rate:,.0f} events/s ({taken:,} in {elapsed:.1f} s, {statuses}); job read "
          f"{during / elapsed:,.0f} events/s during the load, caught up {catch_up:.1f} s later "
          f"({(status()['eventsIn'] - before) / (elapsed + catch_up):,.0f} events/s overall); "
          f"intake p50 {base.pct(latencies, .5):.1f} ms p99 {base.pct(latencies, .99):.1f} ms")
    time.sleep(2)
    elapsed, taken, latencies, statuses = Split(ports, payloads, max(S // 2, 10), C, rate=25_000).run()
    print(f"  at 25,000 events/s: {taken / elapsed:,.0f} taken/s, p50 {base.pct(latencies, .5):.1f} ms, "
          f"p99 {base.pct(latencies, .99):.1f} ms, max {base.pct(latencies, 1):.1f} ms, {statuses}")
    time.sleep(2)


def reduce_job(port, tok, partition_by=()):
    job = base.call(port, "POST", "/v1/jobs", tok, {
        "name": "reduce-and-forward", "execution": "ASYNCHRONOUS", "processing": "STREAMING",
        "jobGraph": {"vertices": [
            {"type": "datadog-log-agent-source", "name": "agents", "integrationId": "dd-in"},
            {"type": "log-reducer", "name": "reduce", "partitionByTags": list(partition_by)},
            {"type": "datadog-log-sink", "name": "datadog", "integrationId": "dd-out"}],
            "edges": ["agents -> reduce", "reduce -> datadog"]}})["id"]
    while base.call(port, "GET", f"/v1/jobs/{job}", tok)["state"] != "RUNNING":
        time.sleep(0.1)
    return job


def main():
    for path in (base.BIN, NATS):
        if not os.path.exists(path):
            sys.exit(f"{path} is missing (see the usage)")
    work = tempfile.mkdtemp(dir=base.WORK)
    nats_proc, nats_url = nats(work)
    port_b = base.free_port()
    b = base.start(os.path.join(work, "b"), port_b, {
        "integrations": [{"id": "dd-in", "name": "in", "type": "datadog", "ingestKey": base.KEY_B}],
        "intake": {"unreadRetentionMs": 5000, "trimMs": 1000}})
    payloads = base.bodies(64)
    print(f"# {C} senders, {base.PER_REQUEST} events a request (gzip); nats-server -js, replicas pinned with taskset")
    procs = [b, nats_proc]
    try:
        if not PARTITIONS_ONLY:
            port = base.free_port()
            one = start_replica(work, "one", port, replica_config(nats_url, port_b, "ONE"), 0)
            procs.append(one)
            tok = base.token(port)
            scenario("1 replica (core 0)", [port], payloads, tok, reduce_job(port, tok))
            one.kill()
        url = os.environ.get("JOBGRAPH_TEST_DATABASE_URL")
        if not url:
            print("2 replicas: skipped (no JOBGRAPH_TEST_DATABASE_URL)")
            return
        if not PARTITIONS_ONLY:
            db = database(url)
            ports = [base.free_port(), base.free_port()]
            config = replica_config(nats_url, port_b, "TWO")
            for i, p in enumerate(ports):
                procs.append(start_replica(work, f"r{i}", p, config, i, db))
            tok = base.token(ports[0])
            scenario("2 replicas (cores 0 and 1)", ports, payloads, tok, reduce_job(ports[0], tok))
        for p in procs[2:]:
            p.kill()
        db = database(url)
        ports = [base.free_port(), base.free_port()]
        config = replica_config(nats_url, port_b, "PARTS", partitions=2)
        for i, p in enumerate(ports):
            procs.append(start_replica(work, f"p{i}", p, config, i, db))
        tok = base.token(ports[0])
        job = reduce_job(ports[0], tok, partition_by=["service"])
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            parts = base.status_of(ports[0], tok, job).get("partitions", [])
            if len({p.get("replica") for p in parts if p.get("replica")}) == 2:
                break
            time.sleep(0.2)
        print(f"  shards: {[(p['partition'], p['replica']) for p in parts]}")
        scenario("2 replicas, 2 partitions (one shard on each core)", ports, payloads, tok, job)
        parts = base.status_of(ports[0], tok, job).get("partitions", [])
        print(f"  per shard: {[(p['partition'], p['replica'], p['eventsIn']) for p in parts]}")
    finally:
        for p in procs:
            p.kill()


if __name__ == "__main__":
    main()
