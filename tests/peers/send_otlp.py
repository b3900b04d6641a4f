#!/usr/bin/env python3
"""Send logs over OTLP/HTTP with the OpenTelemetry Python SDK, through Python's `logging`.

A LoggerProvider with a Resource (service.name, host.name, and the custom attribute
peer.suite=jobgraph plus any --resource K=V), a BatchLogRecordProcessor (or, with --simple, a
SimpleLogRecordProcessor) around OTLPLogExporter(endpoint=..., headers=...), and the SDK's
LoggingHandler on a Python logger. Exporters:
  default  opentelemetry.exporter.otlp.proto.http._log_exporter.OTLPLogExporter  (protobuf,
           Content-Type application/x-protobuf)
  --json   opentelemetry.exporter.otlp.json.http._log_exporter.OTLPLogExporter    (OTLP/JSON,
           Content-Type application/json; package opentelemetry-exporter-otlp-json-http, the
           OpenTelemetry project's own JSON exporter - nothing here is hand-made)

Record i (0-based) is logged with logging at level LEVELS[i % 5] (DEBUG, INFO, WARNING, ERROR,
CRITICAL; severityNumber 5, 9, 13, 17, 21) with body f"{prefix} {i}" and attributes (extra=)
    seq=i (int), peer.kind="otlp", ratio=i/2 (float), odd=(i % 2 == 1) (bool)
plus the handler's own code.file.path / code.function.name / code.line.number. ERROR records carry
an exception (exception.type=ValueError, exception.message=f"boom {i}", exception.stacktrace).
Records with i % 3 == 0 are logged inside a span of the SDK's TracerProvider, so they carry its
traceId/spanId (listed in the summary's "spans"); the others have none.

Every export's LogRecordExportResult (and HTTP status, read from the exporter's HTTP client) is
recorded by a wrapping exporter. Summary (one JSON line on stdout):
    {"tool":"send_otlp","ok":true,"encoding":"protobuf"|"json","emitted":N,"exported":N,
     "exports":[{"records":K,"result":"SUCCESS","status":200,"reason":"OK","error":null}, ...],
     "http_statuses":[503,200,...],   (every POST, the exporter's own retries included)
     "spans":[{"seq":0,"trace_id":"<32 hex>","span_id":"<16 hex>"}, ...],"endpoint":"..."}
ok is true when every export returned SUCCESS and all N records were exported. Exit 0 / 1.
"""

import argparse
import logging
import os
import socket
import sys
import warnings

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _peers import fail, import_or_die, parse_kv, summary  # noqa: E402

TOOL = "send_otlp"
LEVELS = [logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR, logging.CRITICAL]


def main():
    p = argparse.ArgumentParser(
        description="Emit N log records through Python logging -> OpenTelemetry SDK -> OTLP/HTTP exporter.",
        epilog="Prints one JSON summary line on stdout; exit 0 when every export succeeded.",
    )
    p.add_argument("--endpoint", required=True, help="full logs URL, e.g. http://127.0.0.1:8080/v1/logs")
    p.add_argument("--header", action="append", default=[], metavar="K=V",
                   help='request header, e.g. "Authorization=Bearer KEY" (repeatable)')
    p.add_argument("--count", type=int, required=True)
    p.add_argument("--json", action="store_true", help="use the OTLP/JSON exporter instead of protobuf")
    p.add_argument("--gzip", action="store_true", help="exporter compression gzip")
    p.add_argument("--simple", action="store_true",
                   help="SimpleLogRecordProcessor (one export per record) instead of BatchLogRecordProcessor")
    p.add_argument("--batch-size", type=int, default=512, help="BatchLogRecordProcessor max_export_batch_size")
    p.add_argument("--service", default="peer-otlp", help="resource service.name (default peer-otlp)")
    p.add_argument("--host-name", default=socket.gethostname(), help="resource host.name")
    p.add_argument("--resource", action="append", default=[], metavar="K=V", help="extra resource attribute")
    p.add_argument("--message-prefix", default="otlp-msg", help='body i is f"{prefix} {i}" (default otlp-msg)')
    p.add_argument("--logger-name", default="peer.otlp", help="Python logger name (becomes the scope name)")
    p.add_argument("--timeout", type=float, default=10.0, help="exporter timeout in seconds (its retries included)")
    args = p.parse_args()
    if args.count < 0:
        p.error("--count must be >= 0")
    headers = parse_kv(args.header, "--header")
    resource_attrs = {"service.name": args.service, "host.name": args.host_name, "peer.suite": "jobgraph"}
    resource_attrs.update(parse_kv(args.resource, "--resource"))

    import_or_die(TOOL, "opentelemetry.sdk")
    from opentelemetry import trace
    from opentelemetry.exporter.otlp.common.http import Compression
    from opentelemetry.sdk._logs import LoggerProvider, LoggingHandler
    from opentelemetry.sdk._logs.export import (
        BatchLogRecordProcessor,
        LogRecordExporter,
        LogRecordExportResult,
        SimpleLogRecordProcessor,
    )
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider

    if args.json:
        exporter_module = "opentelemetry.exporter.otlp.json.http._log_exporter"
    else:
        exporter_module = "opentelemetry.exporter.otlp.proto.http._log_exporter"
    OTLPLogExporter = import_or_die(TOOL, exporter_module).OTLPLogExporter

    exporter = OTLPLogExporter(
        endpoint=args.endpoint,
        headers=headers,
        timeout=args.timeout,
        compression=Compression.GZIP if args.gzip else Compression.NONE,
    )
    exports = []
    statuses = []
    attempts = []  # HTTP status of every POST (None: no answer)

    # The HTTP status of each POST: the exporter's _OTLPHTTPClient returns it in its _ExportResult
    # (private API of opentelemetry-exporter-otlp-common; skipped if it changes).
    client = getattr(exporter, "_client", None)
    if client is not None and hasattr(client, "export"):
        inner_export = client.export

        def recording_client_export(data):
            result = inner_export(data)
            statuses.append({"status": getattr(result, "status_code", None),
                             "reason": getattr(result, "reason", None),
                             "error": repr(result.error) if getattr(result, "error", None) else None})
            return result

        client.export = recording_client_export

        # ... and every HTTP attempt, retries included (the client retries 429/502/503/504).
        transport = getattr(client, "_transport", None)
        if transport is not None and hasattr(transport, "request"):
            inner_request = transport.request

            def recording_request(*a, **kw):
                result = inner_request(*a, **kw)
                attempts.append(getattr(result, "status_code", None))
                return result

            transport.request = recording_request

    class RecordingExporter(LogRecordExporter):
        """Delegates to the real exporter and records each LogRecordExportResult."""

        def export(self, batch):
            n_status = len(statuses)
            result = exporter.export(batch)
            entry = {"records": len(batch), "result": result.name}
            if len(statuses) > n_status:
                entry.update(statuses[-1])
            exports.append(entry)
            return result

        def force_flush(self, timeout_millis=30_000):
            return exporter.force_flush(timeout_millis)

        def shutdown(self):
            exporter.shutdown()

    recording = RecordingExporter()
    provider = LoggerProvider(resource=Resource.create(resource_attrs), shutdown_on_exit=False)
    if args.simple:
        provider.add_log_record_processor(SimpleLogRecordProcessor(recording))
    else:
        provider.add_log_record_processor(BatchLogRecordProcessor(
            recording, schedule_delay_millis=200, max_export_batch_size=args.batch_size))
    tracer = TracerProvider(resource=Resource.create(resource_attrs)).get_tracer("peer.otlp")

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # LoggingHandler moves to instrumentation-logging
        handler = LoggingHandler(level=logging.DEBUG, logger_provider=provider)
    log = logging.getLogger(args.logger_name)
    log.setLevel(logging.DEBUG)
    log.propagate = False
    log.addHandler(handler)
    # The exporters report failures through logging: show them on stderr.
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)

    spans = []
    for i in range(args.count):
        level = LEVELS[i % len(LEVELS)]
        extra = {"seq": i, "peer.kind": "otlp", "ratio": i / 2, "odd": i % 2 == 1}
        message = f"{args.message_prefix} {i}"

        def emit():
            if level == logging.ERROR:
                try:
                    raise ValueError(f"boom {i}")
                except ValueError:
                    log.log(level, message, extra=extra, exc_info=True)
            else:
                log.log(level, message, extra=extra)

        if i % 3 == 0:
            with tracer.start_as_current_span(f"span-{i}") as span:
                ctx = span.get_span_context()
                spans.append({"seq": i, "trace_id": trace.format_trace_id(ctx.trace_id),
                              "span_id": trace.format_span_id(ctx.span_id)})
                emit()
        else:
            emit()

    flushed = provider.force_flush(int(args.timeout * 1000) + 5000)
    provider.shutdown()
    log.removeHandler(handler)

    exported = sum(e["records"] for e in exports if e["result"] == LogRecordExportResult.SUCCESS.name)
    out = {"tool": TOOL, "endpoint": args.endpoint, "encoding": "json" if args.json else "protobuf",
           "emitted": args.count, "exported": exported, "flushed": flushed, "exports": exports,
           "http_statuses": attempts, "spans": spans}
    if any(e["result"] != LogRecordExportResult.SUCCESS.name for e in exports) or exported != args.count:
        bad = [e for e in exports if e["result"] != "SUCCESS"]
        fail(TOOL, f"{exported} of {args.count} records exported; failed exports: {bad}", **out)
    summary(dict(out, ok=True))


if __name__ == "__main__":
    main()
