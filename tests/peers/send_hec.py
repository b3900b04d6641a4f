#!/usr/bin/env python3
"""Send logs to a Splunk HEC endpoint with the splunk-hec-handler package (SplunkHecHandler).

How the handler is pointed at a plain-HTTP host:port (read from its source, version 1.2.0):
  SplunkHecHandler(host, token, port=PORT, proto="http", endpoint="event", ...) posts to
  f"{proto}://{host}:{port}/services/collector/{endpoint}" with "Authorization: Splunk TOKEN".
  The constructor first opens (and closes) a TCP connection to host:port and raises if it fails.
  It does not batch: emit() POSTs one JSON event per log record, synchronously, with
  "Connection: close", and raises requests' HTTPError out of the logging call on a non-2xx answer
  (a connection error propagates the same way), so each logging call here is checked.

Record i (0-based), at level INFO/WARNING/ERROR by i % 3, is
  even i: the string message f"{prefix} {i}"  -> event {"log_level": L, "message": f"{prefix} {i}"}
  odd i:  a dict message {"message": f"{prefix} {i}", "seq": i, "fields": {"seq": i, "parity": "odd"}}
          -> event {"log_level": L, "message": ..., "seq": i} and indexed fields
             {"seq": "<i>", "parity": "odd"} (the handler stringifies non-string field values)
Every event also has "host" (--hostname, default the machine's), "time" (record.created, a float)
and, when given, "source"/"sourcetype"/"index".

Summary (one JSON line on stdout):
  {"tool":"send_hec","ok":true,"sent":N,"requests":N,"statuses":[200,...],"url":".../services/collector/event"}
Exit 0 when every record was accepted (2xx), else 1 (the summary then has "error").
"""

import argparse
import logging
import os
import sys
from urllib.parse import urlsplit

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _peers import fail, import_or_die, summary  # noqa: E402

TOOL = "send_hec"


def main():
    p = argparse.ArgumentParser(
        description="Emit N log records through Python logging -> splunk-hec-handler -> Splunk HEC /services/collector/event.",
        epilog="Prints one JSON summary line on stdout; exit 0 when every record was accepted.",
    )
    p.add_argument("--url", required=True, help="http://HOST:PORT (scheme, host and port only; the handler adds the path)")
    p.add_argument("--token", required=True, help='sent as "Authorization: Splunk TOKEN"')
    p.add_argument("--count", type=int, required=True)
    p.add_argument("--message-prefix", default="hec-msg", help='message i is f"{prefix} {i}" (default hec-msg)')
    p.add_argument("--source")
    p.add_argument("--sourcetype")
    p.add_argument("--index")
    p.add_argument("--hostname", help="the events' host (default: the machine's hostname)")
    p.add_argument("--timeout", type=float, default=10.0, help="TCP connect probe timeout in seconds")
    args = p.parse_args()
    if args.count < 0:
        p.error("--count must be >= 0")
    url = urlsplit(args.url)
    if url.scheme not in ("http", "https") or not url.hostname:
        p.error(f"--url must be http(s)://HOST:PORT, got {args.url!r}")
    if url.path not in ("", "/"):
        p.error("--url takes no path: the handler always posts to /services/collector/event")
    port = url.port or (443 if url.scheme == "https" else 80)

    hec = import_or_die(TOOL, "splunk_hec_handler")
    import requests

    kwargs = {"port": port, "proto": url.scheme, "endpoint": "event", "timeout": args.timeout}
    if url.scheme == "https":
        kwargs["ssl_verify"] = False
    for name in ("source", "sourcetype", "index", "hostname"):
        if getattr(args, name) is not None:
            kwargs[name] = getattr(args, name)
    target = f"{url.scheme}://{url.hostname}:{port}/services/collector/event"
    base = {"tool": TOOL, "url": target}
    try:
        handler = hec.SplunkHecHandler(url.hostname, args.token, **kwargs)
    except Exception as err:
        fail(TOOL, f"SplunkHecHandler could not reach {url.hostname}:{port}: {type(err).__name__}: {err}",
             sent=0, requests=0, statuses=[], **base)

    statuses = []
    bodies = []

    def record_response(response, *_args, **_kwargs):
        statuses.append(response.status_code)
        bodies.append(response.text[:500])

    handler.r.hooks["response"].append(record_response)  # handler.r is its requests.Session
    log = logging.getLogger("peer.hec")
    log.setLevel(logging.DEBUG)
    log.propagate = False
    log.addHandler(handler)

    sent = 0
    levels = [logging.INFO, logging.WARNING, logging.ERROR]
    for i in range(args.count):
        message = f"{args.message_prefix} {i}"
        if i % 2 == 1:
            message = {"message": message, "seq": i, "fields": {"seq": i, "parity": "odd"}}
        try:
            log.log(levels[i % 3], message)
        except requests.exceptions.HTTPError as err:
            fail(TOOL, f"record {i} answered HTTP {err.response.status_code}: {err.response.text[:500]!r}",
                 sent=sent, requests=len(statuses), statuses=statuses, last_body=bodies[-1] if bodies else None, **base)
        except Exception as err:
            fail(TOOL, f"record {i} failed: {type(err).__name__}: {err}",
                 sent=sent, requests=len(statuses), statuses=statuses, **base)
        sent += 1
    handler.flush()  # a no-op for this handler: every record was POSTed synchronously
    handler.close()
    summary(dict(base, ok=True, sent=sent, requests=len(statuses), statuses=statuses))


if __name__ == "__main__":
    main()
