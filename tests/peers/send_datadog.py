#!/usr/bin/env python3
"""Send logs to a Datadog-compatible intake with Datadog's own Python client.

Uses datadog-api-client's v2 LogsApi.submit_log (HTTPLog / HTTPLogItem models) with
Configuration(host=URL), so each request is `POST URL/api/v2/logs` with the key in the
DD-API-KEY header (configuration.api_key["apiKeyAuth"]); with --gzip/--deflate the client
compresses the JSON body itself and sets Content-Encoding (submit_log's content_encoding).

Item i (0-based) of the run is, deterministically:
    {"message": f"{prefix} {i}", "ddsource": SRC, "ddtags": TAGS, "hostname": H, "service": S,
     "seq": i, "status": ["info", "warn", "error"][i % 3]}
(ddsource/ddtags/hostname/service only when given; "seq"/"status" are additional properties,
which the HTTPLogItem model allows; --no-extra drops them.)

Summary (one JSON line on stdout):
    {"tool":"send_datadog","ok":true,"sent":N,"requests":R,"statuses":[202,...],
     "encoding":"gzip"|"deflate"|"identity","url":"http://.../api/v2/logs","bodies":[{}...]}
With --expect-status CODE every request must fail with CODE; then
    {"tool":"send_datadog","ok":true,"expected_status":403,"statuses":[403],"sent":0,
     "error_bodies":[<the error body, parsed JSON if it was JSON>], ...}
Exit 0 when ok, 1 otherwise (also when an answer was not the one expected).
"""

import argparse
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _peers import fail, import_or_die, summary  # noqa: E402

TOOL = "send_datadog"


def build_items(args, HTTPLogItem):
    items = []
    for i in range(args.count):
        kwargs = {"message": f"{args.message_prefix} {i}"}
        if args.source is not None:
            kwargs["ddsource"] = args.source
        if args.tags is not None:
            kwargs["ddtags"] = args.tags
        if args.host is not None:
            kwargs["hostname"] = args.host
        if args.service is not None:
            kwargs["service"] = args.service
        if not args.no_extra:
            kwargs["seq"] = i
            kwargs["status"] = ["info", "warn", "error"][i % 3]
        items.append(HTTPLogItem(**kwargs))
    return items


def main():
    p = argparse.ArgumentParser(
        description="Send N logs to URL/api/v2/logs with datadog-api-client's LogsApi.submit_log.",
        epilog="Prints one JSON summary line on stdout; exit 0 when every request got the expected answer.",
    )
    p.add_argument("--url", required=True, help="base URL, e.g. http://127.0.0.1:8080 (the client appends /api/v2/logs)")
    p.add_argument("--api-key", help="sent as DD-API-KEY")
    p.add_argument("--no-api-key", action="store_true", help="send no DD-API-KEY header at all (DD_API_KEY env is ignored)")
    p.add_argument("--count", type=int, required=True, help="number of log items")
    p.add_argument("--batch", type=int, default=100, help="items per request (default 100; Datadog allows 1000)")
    enc = p.add_mutually_exclusive_group()
    enc.add_argument("--gzip", action="store_true", help="Content-Encoding: gzip (the client compresses)")
    enc.add_argument("--deflate", action="store_true", help="Content-Encoding: deflate (the client compresses)")
    p.add_argument("--service")
    p.add_argument("--source", help="ddsource")
    p.add_argument("--host", help="hostname")
    p.add_argument("--tags", help='ddtags, e.g. "env:test,team:a"')
    p.add_argument("--message-prefix", default="dd-msg", help='message i is f"{prefix} {i}" (default dd-msg)')
    p.add_argument("--no-extra", action="store_true", help="omit the additional properties seq and status")
    p.add_argument("--expect-status", type=int, help="expect every request to fail with this HTTP status")
    p.add_argument("--allow-status", type=int,
                   help="a request refused with this HTTP status is recorded (with its Retry-After) and the next one sent")
    p.add_argument("--timeout", type=float, default=10.0, help="per-request timeout in seconds")
    args = p.parse_args()
    if args.count < 0 or args.batch < 1:
        p.error("--count must be >= 0 and --batch >= 1")
    if args.api_key is None and not args.no_api_key:
        p.error("give --api-key KEY or --no-api-key")

    dd = import_or_die(TOOL, "datadog_api_client")
    from datadog_api_client.exceptions import ApiException, ApiTypeError, ApiValueError
    from datadog_api_client.v2.api.logs_api import LogsApi
    from datadog_api_client.v2.model.content_encoding import ContentEncoding
    from datadog_api_client.v2.model.http_log import HTTPLog
    from datadog_api_client.v2.model.http_log_item import HTTPLogItem

    os.environ.pop("DD_API_KEY", None)  # the client would fall back to it
    url = args.url.rstrip("/")
    # return_http_data_only=False: submit_log returns (body, status, headers), so 2xx statuses are seen too.
    configuration = dd.Configuration(host=url, return_http_data_only=False, request_timeout=args.timeout)
    configuration.enable_retry = False
    if not args.no_api_key:
        configuration.api_key["apiKeyAuth"] = args.api_key
    encoding = "gzip" if args.gzip else "deflate" if args.deflate else "identity"

    items = build_items(args, HTTPLogItem)
    batches = [items[i : i + args.batch] for i in range(0, len(items), args.batch)] or [[]]
    statuses, bodies, error_bodies, retry_afters = [], [], [], []
    sent = 0
    base = {"tool": TOOL, "url": url + "/api/v2/logs", "encoding": encoding}
    with dd.ApiClient(configuration) as api_client:
        api = LogsApi(api_client)
        for batch in batches:
            kwargs = {}
            if encoding != "identity":
                kwargs["content_encoding"] = ContentEncoding(encoding)
            try:
                body, status, _headers = api.submit_log(HTTPLog(batch), **kwargs)
            except ApiException as err:
                statuses.append(err.status)
                error_bodies.append(err.body)
                if args.allow_status is not None and err.status == args.allow_status:
                    headers = {k.lower(): v for k, v in (err.headers or {}).items()}
                    retry_afters.append(headers.get("retry-after"))
                    continue
                if args.expect_status is None:
                    fail(TOOL, f"request {len(statuses)} answered HTTP {err.status}: {err.body!r}",
                         sent=sent, requests=len(statuses), statuses=statuses, error_bodies=error_bodies, **base)
                if err.status != args.expect_status:
                    fail(TOOL, f"expected HTTP {args.expect_status}, got {err.status}: {err.body!r}",
                         sent=sent, requests=len(statuses), statuses=statuses, error_bodies=error_bodies,
                         expected_status=args.expect_status, **base)
                sys.stderr.write(f"{TOOL}: got the expected HTTP {err.status}; body: {err.body!r}\n")
                continue
            except (ApiTypeError, ApiValueError) as err:
                # e.g. a 2xx whose body is not a JSON object (the client expects `{}`)
                fail(TOOL, f"the client rejected the answer to request {len(statuses) + 1}: {err}",
                     sent=sent, requests=len(statuses) + 1, statuses=statuses, **base)
            except Exception as err:  # connection refused, timeout, ...
                fail(TOOL, f"request {len(statuses) + 1} failed: {type(err).__name__}: {err}",
                     sent=sent, requests=len(statuses) + 1, statuses=statuses, **base)
            statuses.append(status)
            bodies.append(body)
            if args.expect_status is not None:
                fail(TOOL, f"expected HTTP {args.expect_status}, got {status} (accepted)",
                     sent=sent + len(batch), requests=len(statuses), statuses=statuses,
                     expected_status=args.expect_status, **base)
            sent += len(batch)

    out = dict(base, ok=True, sent=sent, requests=len(statuses), statuses=statuses)
    if args.allow_status is not None:
        out.update(retry_afters=retry_afters)
    if args.expect_status is not None:
        out.update(expected_status=args.expect_status, error_bodies=error_bodies)
    else:
        out["bodies"] = bodies
    summary(out)


if __name__ == "__main__":
    main()
