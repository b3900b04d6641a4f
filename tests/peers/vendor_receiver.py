#!/usr/bin/env python3
"""A stand-in vendor intake that decodes what our sinks send with the vendors' own libraries.

    vendor_receiver.py --port 0 --kind datadog|newrelic|otlp|splunk --out FILE
        [--fail-first N --fail-status 503 --retry-after 1]
        [--permanent-status 400 --permanent-match TEXT] [--expect-key KEY]

A threaded http.server (HTTP/1.1, keep-alive, Content-Length or chunked bodies) on 127.0.0.1:
  datadog  POST /api/v2/logs                key in DD-API-KEY
           body: a JSON array of items (a single object is accepted too, like Datadog's intake);
           each item is deserialized with datadog_api_client's model machinery
           (model_utils.validate_and_convert_types(item, (HTTPLogItem,), ...), the helper the client
           uses on its own responses), so an item that HTTPLogItem rejects (no message, a non-string
           message/ddsource/ddtags/hostname/service, not an object) is a decode error; a null
           message is one too (the model declares message: str, non-nullable; the client only skips
           the type check for None).
           success: 202 `{}`
  otlp     POST /v1/logs                     key in Authorization (any scheme; --expect-key compares
                                             the whole value after "Bearer ")
           application/x-protobuf: ExportLogsServiceRequest.FromString (opentelemetry-proto), then
           google.protobuf.json_format.MessageToDict; application/json: the OTLP/JSON body
           (hex traceId/spanId turned into base64 first) read with json_format.Parse into the same
           message, unknown fields rejected.
           One line per LogRecord: {"resource": {...}, "resource_schema_url", "scope": {...},
           "log_record": MessageToDict(record)} - camelCase field names, 64-bit integers as
           strings and enums as integers (severityNumber: 9), like OTLP/JSON, and
           traceId/spanId as lowercase hex (MessageToDict alone would write base64).
           success: 200 empty ExportLogsServiceResponse (protobuf, or `{}` for a JSON request)
  newrelic POST /log/v1                      key in Api-Key
           body: the Log API's detailed JSON, `[{"common"?: {"attributes": {...}}, "logs": [...]}]`;
           checked against what New Relic's own newrelic-telemetry-sdk writes: every log is built
           again with its `Log(message, timestamp, **attributes)` and must equal the one sent, the
           whole body is built again with `LogClient._create_payload(logs, common)` and must read
           as the same JSON, and attribute values must be strings, numbers or booleans.
           One line per log. success: 202 {"requestId": "..."}
  splunk   POST /services/collector/event    (and /services/collector, /services/collector/event/1.0)
           token in "Authorization: Splunk T"
           body: concatenated JSON objects (any whitespace between), read with
           json.JSONDecoder().raw_decode in a loop; each must be an object with "event".
           success: 200 {"text":"Success","code":0}

Content-Encoding gzip, deflate (zlib or raw) and identity are decoded before anything else.

Each request, in order: wrong path -> 404; --expect-key mismatch -> the vendor's auth error
(datadog 403, otlp 401, splunk 401 no token / 403 invalid token); one of the first N requests
(--fail-first) -> --fail-status with Retry-After (when --retry-after is given); body contains
--permanent-match (after decompression) -> --permanent-status; undecodable body -> 400.

FILE gets one JSON line per decoded item, appended and flushed per request:
    {"kind", "request": n (1-based, counts every request), "path", "query", "headers": {lower-case
     name: value, all of the request's headers}, "body_sha256" (of the body as received), "item": ...}
and for requests not accepted, one line each (no "item" key):
    {"request": n, "rejected": STATUS, "reason": "not-found"|"auth"|"fail-first"|"permanent-match",
     "path", "headers", "body_sha256"}
    {"request": n, "decode_error": "...", "path", "headers", "body_sha256"}
so a test that wants the items filters on "item" and can compare body_sha256 across retries.
With --raw-dir DIR each request's body, as received, is also saved to DIR/<request:06>.body.

On start it prints `{"port": P}` on stdout (flushed) and serves until killed (SIGTERM/SIGINT).
"""

import argparse
import base64
import gzip
import hashlib
import json
import os
import signal
import sys
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _peers import fail, import_or_die  # noqa: E402

TOOL = "vendor_receiver"

PATHS = {
    "datadog": {"/api/v2/logs"},
    "newrelic": {"/log/v1"},
    "otlp": {"/v1/logs"},
    "splunk": {"/services/collector/event", "/services/collector", "/services/collector/event/1.0"},
}


class DecodeError(Exception):
    pass


def decompress(body, encoding):
    encoding = (encoding or "identity").strip().lower()
    try:
        if encoding in ("", "identity"):
            return body
        if encoding in ("gzip", "x-gzip"):
            return gzip.decompress(body)
        if encoding == "deflate":
            try:
                return zlib.decompress(body)  # zlib-wrapped, what HTTP calls deflate
            except zlib.error:
                return zlib.decompress(body, -zlib.MAX_WBITS)  # raw deflate, sent by some clients
    except (OSError, EOFError, zlib.error) as err:
        raise DecodeError(f"cannot decode Content-Encoding {encoding}: {err}") from err
    raise DecodeError(f"unsupported Content-Encoding {encoding!r}")


# ---------------------------------------------------------------------------------------------
# Datadog: datadog-api-client's HTTPLogItem model

class DatadogDecoder:
    def __init__(self):
        dd = import_or_die(TOOL, "datadog_api_client")
        from datadog_api_client.model_utils import UnparsedObject, validate_and_convert_types
        from datadog_api_client.v2.model.http_log_item import HTTPLogItem

        self.configuration = dd.Configuration()
        self.validate = validate_and_convert_types
        self.model = HTTPLogItem
        self.unparsed = UnparsedObject

    def decode(self, body, headers):
        try:
            doc = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as err:
            raise DecodeError(f"body is not JSON: {err}") from err
        raw_items = doc if isinstance(doc, list) else [doc]
        items = []
        for index, raw in enumerate(raw_items):
            try:
                model = self.validate(raw, (self.model,), ["body", index], True, True,
                                      configuration=self.configuration)
            except Exception as err:  # ApiTypeError, TypeError (missing message), ApiValueError
                raise DecodeError(f"item {index} rejected by HTTPLogItem: {type(err).__name__}: {err}") from err
            if isinstance(model, self.unparsed) or getattr(model, "_unparsed", False):
                raise DecodeError(f"item {index} rejected by HTTPLogItem: unparsed")
            if model.get("message") is None:
                raise DecodeError(f"item {index} rejected by HTTPLogItem: message is null")
            items.append(model.to_dict())
        return items

    def success(self, is_json):
        return 202, "application/json", b"{}"

    def auth_ok(self, headers, key):
        return headers.get("dd-api-key") == key

    def auth_error(self, headers):
        return 403, "application/json", json.dumps(
            {"errors": [{"status": "403", "title": "Forbidden", "detail": "Forbidden"}]}).encode()

    def error(self, status, text):
        return status, "application/json", json.dumps(
            {"errors": [{"status": str(status), "title": "Error", "detail": text}]}).encode()


# ---------------------------------------------------------------------------------------------
# OTLP: opentelemetry-proto's ExportLogsServiceRequest + google.protobuf.json_format

def _hex_ids_to_base64(doc):
    """OTLP/JSON writes traceId/spanId as hex; proto3 JSON (json_format) wants base64."""
    if not isinstance(doc, dict):
        raise DecodeError("OTLP/JSON body is not an object")
    for rl in doc.get("resourceLogs") or []:
        for sl in (rl or {}).get("scopeLogs") or []:
            for lr in (sl or {}).get("logRecords") or []:
                if not isinstance(lr, dict):
                    continue
                for field, size in (("traceId", 16), ("spanId", 8)):
                    value = lr.get(field)
                    if value in (None, ""):
                        continue
                    if not isinstance(value, str):
                        raise DecodeError(f"{field} is not a string: {value!r}")
                    try:
                        raw = bytes.fromhex(value)
                    except ValueError as err:
                        raise DecodeError(f"{field} is not hex: {value!r}") from err
                    if len(raw) != size:
                        raise DecodeError(f"{field} is {len(raw)} bytes, not {size}: {value!r}")
                    lr[field] = base64.b64encode(raw).decode()
    return doc


class OtlpDecoder:
    def __init__(self):
        logs_service_pb2 = import_or_die(TOOL, "opentelemetry.proto.collector.logs.v1.logs_service_pb2")
        json_format = import_or_die(TOOL, "google.protobuf.json_format")
        self.request_type = logs_service_pb2.ExportLogsServiceRequest
        self.response_type = logs_service_pb2.ExportLogsServiceResponse
        self.json_format = json_format

    @staticmethod
    def _is_json(headers):
        return "json" in (headers.get("content-type") or "").lower()

    def decode(self, body, headers):
        ctype = (headers.get("content-type") or "").split(";")[0].strip().lower()
        try:
            if ctype == "application/json":
                try:
                    doc = json.loads(body.decode("utf-8"))
                except (UnicodeDecodeError, ValueError) as err:
                    raise DecodeError(f"body is not JSON: {err}") from err
                msg = self.json_format.Parse(json.dumps(_hex_ids_to_base64(doc)), self.request_type())
            elif ctype == "application/x-protobuf":
                msg = self.request_type.FromString(body)
            else:
                raise DecodeError(f"Content-Type {ctype!r} is neither application/x-protobuf nor application/json")
        except DecodeError:
            raise
        except Exception as err:  # DecodeError from protobuf, json_format.ParseError
            raise DecodeError(f"not an ExportLogsServiceRequest: {type(err).__name__}: {err}") from err
        def to_dict(m):
            return self.json_format.MessageToDict(m, use_integers_for_enums=True)

        items = []
        for rl in msg.resource_logs:
            resource = to_dict(rl.resource)
            for sl in rl.scope_logs:
                scope = to_dict(sl.scope)
                for lr in sl.log_records:
                    for name, size in (("trace_id", 16), ("span_id", 8)):
                        value = getattr(lr, name)
                        if value and len(value) != size:
                            raise DecodeError(f"{name} is {len(value)} bytes, not {size}")
                    record = to_dict(lr)
                    if lr.trace_id:
                        record["traceId"] = lr.trace_id.hex()
                    if lr.span_id:
                        record["spanId"] = lr.span_id.hex()
                    items.append({
                        "resource": resource,
                        "resource_schema_url": rl.schema_url,
                        "scope": scope,
                        "scope_schema_url": sl.schema_url,
                        "log_record": record,
                    })
        return items

    def success(self, is_json):
        if is_json:
            return 200, "application/json", b"{}"
        return 200, "application/x-protobuf", self.response_type().SerializeToString()

    def auth_ok(self, headers, key):
        value = headers.get("authorization") or ""
        return value == key or value == f"Bearer {key}"

    def auth_error(self, headers):
        return self.error(401, "Unauthorized", self._is_json(headers))

    def error(self, status, text, is_json=False):
        # OTLP/HTTP answers failures with a google.rpc.Status
        from google.rpc import status_pb2

        st = status_pb2.Status(code=3 if status == 400 else 14 if status in (429, 502, 503, 504) else 2, message=text)
        if is_json:
            return status, "application/json", self.json_format.MessageToJson(st).encode()
        return status, "application/x-protobuf", st.SerializeToString()


# ---------------------------------------------------------------------------------------------
# New Relic: the Log API's JSON, rebuilt with newrelic-telemetry-sdk

class NewRelicDecoder:
    def __init__(self):
        sdk = import_or_die(TOOL, "newrelic_telemetry_sdk")
        self.log = sdk.Log
        self.client = sdk.LogClient("receiver-check", host="127.0.0.1", port=1)

    def decode(self, body, headers):
        try:
            doc = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as err:
            raise DecodeError(f"body is not JSON: {err}") from err
        if not isinstance(doc, list) or not doc:
            raise DecodeError("the body is not a non-empty JSON array of blocks")
        items = []
        for b, block in enumerate(doc):
            if not isinstance(block, dict) or not isinstance(block.get("logs"), list):
                raise DecodeError(f"block {b}: no `logs` array")
            extra = set(block) - {"logs", "common"}
            if extra:
                raise DecodeError(f"block {b}: unknown keys {sorted(extra)}")
            common = block.get("common")
            rebuilt = []
            for i, log in enumerate(block["logs"]):
                if not isinstance(log, dict) or not isinstance(log.get("message"), str):
                    raise DecodeError(f"block {b} log {i}: no string `message`")
                if not isinstance(log.get("timestamp"), int):
                    raise DecodeError(f"block {b} log {i}: `timestamp` is not an integer (ms)")
                attributes = log.get("attributes") or {}
                if not isinstance(attributes, dict):
                    raise DecodeError(f"block {b} log {i}: `attributes` is not an object")
                for key, value in attributes.items():
                    if not isinstance(value, (str, int, float, bool)):
                        raise DecodeError(f"block {b} log {i}: attribute {key!r} is a {type(value).__name__}")
                again = dict(self.log(log["message"], log["timestamp"], **attributes))
                if again != log:
                    raise DecodeError(f"block {b} log {i}: not what the SDK's Log writes: {log} vs {again}")
                rebuilt.append(again)
                items.append(log)
            payload = json.loads(gzip.decompress(self.client._create_payload(rebuilt, common)))
            if payload != [block]:
                raise DecodeError(f"block {b}: not what the SDK's LogClient writes")
        return items

    def success(self, is_json):
        return 202, "application/json", b'{"requestId":"00000000-0000-0000-0000-000000000000"}'

    def auth_ok(self, headers, key):
        return headers.get("api-key") == key

    def auth_error(self, headers):
        return 403, "application/json", b'{"error":"invalid api key"}'

    def error(self, status, text):
        return status, "application/json", json.dumps({"error": text}).encode()


# ---------------------------------------------------------------------------------------------
# Splunk HEC: concatenated JSON objects, each with "event"

class SplunkDecoder:
    def decode(self, body, headers):
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as err:
            raise DecodeError(f"body is not UTF-8: {err}") from err
        decoder = json.JSONDecoder()
        items, pos, n = [], 0, 0
        while True:
            while pos < len(text) and text[pos] in " \t\r\n":
                pos += 1
            if pos >= len(text):
                break
            try:
                obj, pos = decoder.raw_decode(text, pos)
            except ValueError as err:
                raise DecodeError(f"event {n}: invalid JSON: {err}") from err
            if not isinstance(obj, dict):
                raise DecodeError(f"event {n}: not a JSON object")
            if "event" not in obj:
                raise DecodeError(f"event {n}: Event field is required")
            if obj["event"] is None or obj["event"] == "":
                raise DecodeError(f"event {n}: Event field cannot be blank")
            items.append(obj)
            n += 1
        if not items:
            raise DecodeError("No data")
        return items

    def success(self, is_json):
        return 200, "application/json", b'{"text":"Success","code":0}'

    def auth_ok(self, headers, key):
        return (headers.get("authorization") or "") == f"Splunk {key}"

    def auth_error(self, headers):
        if not headers.get("authorization"):
            return 401, "application/json", b'{"text":"Token is required","code":2}'
        return 403, "application/json", b'{"text":"Invalid token","code":4}'

    def error(self, status, text):
        # HEC's codes: 5 No data, 6 Invalid data format, 12 Event field is required,
        # 13 Event field cannot be blank, 9 Server is busy, 8 Internal server error
        code = (5 if text == "No data" else 12 if "is required" in text else 13 if "blank" in text
                else 6 if status == 400 else 9 if status in (429, 503) else 8)
        return status, "application/json", json.dumps({"text": text, "code": code}).encode()


# ---------------------------------------------------------------------------------------------

class State:
    def __init__(self, args, decoder):
        self.args = args
        self.decoder = decoder
        self.lock = threading.Lock()
        self.requests = 0
        self.failed_first = 0
        self.out = open(args.out, "a", encoding="utf-8")

    def write(self, lines):
        with self.lock:
            for line in lines:
                self.out.write(json.dumps(line, separators=(",", ":"), default=str) + "\n")
            self.out.flush()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "vendor-receiver/1"
    state: State = None  # set in main

    def log_message(self, fmt, *args):
        if self.state.args.verbose:
            sys.stderr.write(f"{TOOL}: {self.address_string()} {fmt % args}\n")

    def _read_body(self):
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            chunks = []
            while True:
                size_line = self.rfile.readline()
                size = int(size_line.split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass  # trailers
                    break
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            return b"".join(chunks)
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _answer(self, status, ctype, body, extra=None):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self._answer(405, "text/plain", b"POST only\n")

    def do_POST(self):
        st = self.state
        args = st.args
        dec = st.decoder
        body = self._read_body()
        split = urlsplit(self.path)
        headers = {k.lower(): v for k, v in self.headers.items()}
        with st.lock:
            st.requests += 1
            n = st.requests
        base = {"kind": args.kind, "request": n, "path": split.path, "query": split.query,
                "headers": headers, "body_sha256": hashlib.sha256(body).hexdigest()}
        if args.raw_dir:
            with open(os.path.join(args.raw_dir, f"{n:06d}.body"), "wb") as raw:
                raw.write(body)
        is_json = args.kind == "otlp" and "json" in headers.get("content-type", "").lower()

        def error(status, text):
            return dec.error(status, text, is_json) if args.kind == "otlp" else dec.error(status, text)

        if split.path not in PATHS[args.kind]:
            st.write([dict(base, rejected=404, reason="not-found")])
            return self._answer(*error(404, f"no such path {split.path}"))
        if args.expect_key is not None and not dec.auth_ok(headers, args.expect_key):
            answer = dec.auth_error(headers)
            st.write([dict(base, rejected=answer[0], reason="auth")])
            return self._answer(*answer)
        with st.lock:
            fail_now = st.failed_first < args.fail_first
            if fail_now:
                st.failed_first += 1
        if fail_now:
            extra = {"Retry-After": args.retry_after} if args.retry_after is not None else None
            st.write([dict(base, rejected=args.fail_status, reason="fail-first")])
            return self._answer(*error(args.fail_status, "injected failure (--fail-first)"), extra=extra)
        try:
            plain = decompress(body, headers.get("content-encoding"))
            if args.permanent_match is not None and args.permanent_match.encode() in plain:
                st.write([dict(base, rejected=args.permanent_status, reason="permanent-match")])
                return self._answer(*error(args.permanent_status, "injected permanent failure (--permanent-match)"))
            items = dec.decode(plain, headers)
        except DecodeError as err:
            st.write([dict(base, decode_error=str(err))])
            return self._answer(*error(400, str(err)))
        st.write([dict(base, item=item) for item in items])
        return self._answer(*dec.success(is_json))


def main():
    p = argparse.ArgumentParser(
        description="Stand-in Datadog / OTLP / Splunk HEC intake that decodes requests with the vendors' libraries.",
        epilog='Prints {"port": P} on stdout when listening, then serves until killed.',
    )
    p.add_argument("--kind", required=True, choices=sorted(PATHS))
    p.add_argument("--port", type=int, default=0, help="0 picks a free port (printed)")
    p.add_argument("--bind", default="127.0.0.1")
    p.add_argument("--out", required=True, help="JSON-lines file the decoded items are appended to")
    p.add_argument("--fail-first", type=int, default=0, help="answer the first N requests with --fail-status")
    p.add_argument("--fail-status", type=int, default=503)
    p.add_argument("--retry-after", help="Retry-After value sent with the --fail-first answers (none if omitted)")
    p.add_argument("--permanent-status", type=int, default=400)
    p.add_argument("--permanent-match", help="answer --permanent-status when the (decompressed) body contains TEXT")
    p.add_argument("--expect-key", help="the API key / token to require (Datadog key, OTLP bearer, Splunk token)")
    p.add_argument("--raw-dir", help="also save each request's body, as received, to RAW_DIR/<request>.body")
    p.add_argument("--verbose", action="store_true", help="log each request on stderr")
    args = p.parse_args()

    if args.raw_dir:
        os.makedirs(args.raw_dir, exist_ok=True)
    decoder = {"datadog": DatadogDecoder, "newrelic": NewRelicDecoder, "otlp": OtlpDecoder,
               "splunk": SplunkDecoder}[args.kind]()
    try:
        Handler.state = State(args, decoder)
    except OSError as err:
        fail(TOOL, f"cannot open --out {args.out}: {err}")
    try:
        server = ThreadingHTTPServer((args.bind, args.port), Handler)
    except OSError as err:
        fail(TOOL, f"cannot listen on {args.bind}:{args.port}: {err}")
    server.daemon_threads = True

    def stop(signum, _frame):
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    sys.stdout.write(json.dumps({"port": server.server_address[1]}) + "\n")
    sys.stdout.flush()
    try:
        server.serve_forever(poll_interval=0.2)
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
