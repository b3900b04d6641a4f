#!/usr/bin/env python3
"""Writes N log events as NDJSON, spread evenly over DAYS days ending at END (UTC), in time
order: the data of the lake benchmark (bench/lake.sh, bench/RESULTS.md "The data lake").

    python3 bench/lake-gen.py 10000000 30 2026-11-25T00:00:00Z > target/lake-bench/events.ndjson

Each event (~200 bytes): id, eventTimestamp (ISO 8601, ms), message, tags service (20 values,
`checkout` among them), host (50), level (info 80 %, warn 12 %, error 8 %), env, and a small
attributes object. Deterministic (seeded), so runs compare.
"""
import datetime
import random
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
days = int(sys.argv[2]) if len(sys.argv) > 2 else 30
end = datetime.datetime.fromisoformat((sys.argv[3] if len(sys.argv) > 3 else "2026-11-25T00:00:00Z").replace("Z", "+00:00"))
start = end - datetime.timedelta(days=days)
span_ms = days * 86_400_000
rng = random.Random(22)
services = ["checkout", "cart", "search", "auth", "payments", "shipping", "catalog", "reviews",
            "email", "billing", "gateway", "inventory", "orders", "pricing", "profile",
            "recommend", "session", "storage", "tax", "web"]
hosts = [f"host-{i:02d}" for i in range(50)]
messages = ["request served", "cache miss for key", "upstream latency above threshold",
            "payment declined by issuer", "connection reset by peer", "retrying request",
            "user signed in", "order placed", "disk usage high", "timeout talking to db"]
out = sys.stdout
write = out.write
base = int(start.timestamp() * 1000)
step = span_ms / n
buf = []
for i in range(n):
    t = base + int(i * step)
    ts = datetime.datetime.fromtimestamp(t / 1000, datetime.timezone.utc)
    r = rng.random()
    level = "info" if r < 0.80 else ("warn" if r < 0.92 else "error")
    service = services[rng.randrange(20)]
    host = hosts[rng.randrange(50)]
    status = 500 if level == "error" else (429 if level == "warn" else 200)
    buf.append(
        f'{{"id":"e{i:09d}","eventTimestamp":"{ts.strftime("%Y-%m-%dT%H:%M:%S")}.{t % 1000:03d}Z",'
        f'"message":"{messages[rng.randrange(10)]}","tags":{{"service":["{service}"],"host":["{host}"],'
        f'"level":["{level}"],"env":["prod"]}},"attributes":{{"http":{{"status":{status},"duration_ms":{rng.randrange(1, 2000)}}}}}}}\n'
    )
    if len(buf) == 10_000:
        write("".join(buf))
        buf.clear()
write("".join(buf))
