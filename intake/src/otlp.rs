//! OTLP/HTTP logs (`POST /v1/logs`), as the OpenTelemetry SDKs' and the collector's `otlphttp`
//! exporters send them: an `ExportLogsServiceRequest` in protobuf (`application/x-protobuf`) or
//! in OTLP JSON (`application/json`: lowerCamelCase names, trace and span ids in hex, 64-bit
//! integers as strings or numbers, enums as numbers).
//!
//! OTLP JSON is read leniently where the protobuf JSON mapping allows it: snake_case names too,
//! `null` as absent, unknown fields ignored, `severityNumber` also as its enum name
//! (`"SEVERITY_NUMBER_WARN"`), `doubleValue` also as `"NaN"`/`"Infinity"`/`"-Infinity"`; and
//! strictly where it matters: a trace id in base64 is an error that says to write hex.
//!
//! ## Decoding (a log record → an event)
//!
//! | OTLP | event |
//! |---|---|
//! | `timeUnixNano`, else (when 0) `observedTimeUnixNano` | `eventTimestamp` (milliseconds, rounded down); both 0: left out |
//! | `body` a string | `message` |
//! | `body` another value | `message` = its JSON text, and `attributes.body` = the value |
//! | `severityNumber` 1–24 | `severity`; when 0 (or out of range), [`crate::severity::from_text`] of `severityText`, else left out |
//! | `severityText` (not empty) | tag `status` (as Datadog's `status`) |
//! | resource attributes | tags: each key with its value as text (an array: one value per element; a kvlist: its JSON text; bytes: base64); `service.name`'s values also in tag `service`, `host.name`'s in tag `host` |
//! | record attributes | `attributes`, converted: string, bool, int (number), double (number; NaN and infinities as text), bytes (base64 text), array (array), kvlist (object), empty (null) |
//! | `traceId`, `spanId` (not empty, not all zeros) | `attributes.trace_id`, `attributes.span_id` (lowercase hex) |
//! | `flags` (not 0) | `attributes.trace_flags` |
//! | `eventName` (not empty) | `attributes["event.name"]` |
//! | scope `name`, `version` (not empty) | `attributes["otel.scope.name"]`, `attributes["otel.scope.version"]` |
//!
//! The record's own fields win over record attributes of the same names. Dropped-attribute
//! counts, schema URLs and scope attributes are not kept.
//!
//! Limits ([`LIMITS`]; OTLP sets none): 100,000 records, 1 MiB a record, 16 MiB for all the
//! records together with their resource and scope counted for each. A request past them fails
//! whole ([`OtlpError::status`] 413) rather than in part.
//!
//! ## Encoding (events → an `ExportLogsServiceRequest` in protobuf), [`encode`]
//!
//! The reverse of the table: events are grouped by their tags other than `status` (one
//! `ResourceLogs` each, in order of first appearance), then by `otel.scope.name` and
//! `otel.scope.version`. Tags become resource attributes (one value: a string; several: an array
//! of strings); tag `service` becomes `service.name` when there is no tag `service.name` (and
//! stays `service` only for its values that `service.name` does not have), likewise `host` and
//! `host.name`. The tag `status` (its first value) becomes `severityText`; `severity`
//! `severityNumber`; `eventTimestamp` `timeUnixNano`;
//! `receivedTimestamp` `observedTimeUnixNano`; `message` the body (the value of
//! `attributes.body` when `message` is its JSON text); `attributes.trace_id`/`span_id` (32 and 16
//! hex digits) and `trace_flags` the record's fields; the other attributes record attributes
//! (integers that fit an int64 as ints, other numbers as doubles, objects as kvlists).
//!
//! `decode(encode(events))` gives back events decoded from OTLP, but for the order of events
//! (grouped by resource, then scope) and a resource attribute `service` (`host`) given without
//! `service.name` (`host.name`), which comes back as both. Events from elsewhere come back with
//! the tags `service.name`/`host.name` beside `service`/`host`.
//!
//! ## Answers
//!
//! Success is HTTP 200 with an `ExportLogsServiceResponse` in the request's encoding
//! ([`success_body`]); an error is HTTP 400 (or 413) with a `google.rpc.Status`
//! `{code: 3 (INVALID_ARGUMENT), message}` in the request's encoding ([`error_body`],
//! [`OtlpError::body`]).
//!
//! ```
//! use jobgraph_intake::otlp::{self, Encoding};
//! let body = br#"{"resourceLogs":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"api"}}]},
//!   "scopeLogs":[{"logRecords":[{"timeUnixNano":"1700000000123456789","severityNumber":17,"body":{"stringValue":"boom"},
//!   "traceId":"5b8efff798038103d269b633813fc60c","attributes":[{"key":"n","value":{"intValue":"42"}}]}]}]}]}"#;
//! let events = otlp::decode(body, Encoding::Json).unwrap();
//! assert_eq!(serde_json::Value::Object(events[0].clone()), serde_json::json!({
//!     "eventTimestamp": 1700000000123i64,
//!     "message": "boom",
//!     "severity": 17,
//!     "tags": {"service.name": ["api"], "service": ["api"]},
//!     "attributes": {"n": 42, "trace_id": "5b8efff798038103d269b633813fc60c"},
//! }));
//! assert_eq!(otlp::decode(&otlp::encode(&events), Encoding::Protobuf).unwrap(), events);
//! ```

mod encode;
mod json;
mod proto;
mod wire;

use base64::Engine as _;
use prost::Message as _;
use serde_json::{Map, Value, json};

use crate::event::{EventBuilder, add_tag};
use crate::{Event, Limits, severity};
use proto::any_value::Value as Any;

pub use encode::encode;

/// Our limits for OTLP (which sets none): 100,000 records, 1 MiB a record, 16 MiB in all.
pub const LIMITS: Limits = Limits {
    max_events: 100_000,
    max_event_bytes: 1 << 20,
    max_total_bytes: 16 << 20,
};

/// The HTTP status of a successful export (also when some records were rejected: see
/// [`success_body`]).
pub const SUCCESS_STATUS: u16 = 200;

/// The encoding of an OTLP/HTTP body, from its `Content-Type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// `application/x-protobuf` (also `application/protobuf`).
    Protobuf,
    /// `application/json`.
    Json,
}

impl Encoding {
    /// The encoding a `Content-Type` names (parameters such as `; charset=utf-8` ignored,
    /// case-insensitive); `None` for none or another type (answer 415 Unsupported Media Type).
    ///
    /// ```
    /// use jobgraph_intake::otlp::Encoding;
    /// assert_eq!(Encoding::from_content_type(Some("application/x-protobuf")), Some(Encoding::Protobuf));
    /// assert_eq!(Encoding::from_content_type(Some("Application/JSON; charset=utf-8")), Some(Encoding::Json));
    /// assert_eq!(Encoding::from_content_type(Some("text/plain")), None);
    /// ```
    pub fn from_content_type(content_type: Option<&str>) -> Option<Encoding> {
        let essence = content_type?.split(';').next()?.trim().to_ascii_lowercase();
        match essence.as_str() {
            "application/x-protobuf" | "application/protobuf" => Some(Encoding::Protobuf),
            "application/json" => Some(Encoding::Json),
            _ => None,
        }
    }

    /// The `Content-Type` of answers in this encoding.
    pub fn content_type(self) -> &'static str {
        match self {
            Encoding::Protobuf => "application/x-protobuf",
            Encoding::Json => "application/json",
        }
    }
}

/// Why an OTLP/HTTP body was refused; [`OtlpError::status`] and [`OtlpError::body`] give the
/// answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OtlpError {
    /// The body is not a protobuf `ExportLogsServiceRequest`.
    #[error(
        "the body is not a valid protobuf ExportLogsServiceRequest: {what} (at byte {offset}); send OTLP/HTTP protobuf, or OTLP JSON with Content-Type: application/json"
    )]
    Protobuf {
        /// The byte offset in the body of the field or message that is wrong.
        offset: usize,
        /// What is wrong.
        what: String,
    },
    /// The body is not JSON.
    #[error(
        "the body is not valid JSON: {0}; OTLP JSON is an ExportLogsServiceRequest object, {{\"resourceLogs\":[…]}}"
    )]
    Json(String),
    /// A value of the OTLP JSON is not what the protocol says.
    #[error(
        "{pointer} is {found}, expected {expected} (OTLP JSON: https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding)"
    )]
    JsonValue {
        /// The JSON pointer of the value (`""` for the whole body).
        pointer: String,
        /// What the protocol says it is.
        expected: &'static str,
        /// What it is.
        found: String,
    },
    /// More records than the limit.
    #[error("the request has more than {limit} log records; send at most {limit} per request")]
    TooManyRecords {
        /// The limit.
        limit: usize,
    },
    /// A record larger than the limit.
    #[error(
        "the log record at {at} is {size} bytes, more than the {limit} bytes a record may take; send smaller records"
    )]
    RecordTooLarge {
        /// Where it is: a byte offset (protobuf) or a JSON pointer.
        at: String,
        /// Its size in bytes.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// The records, each with its resource and scope, take more than the limit.
    #[error(
        "the log records take more than {limit} bytes, each counted with its resource and scope (at {at}); send smaller batches or smaller resources"
    )]
    TooLarge {
        /// Where the limit was passed.
        at: String,
        /// The limit.
        limit: usize,
    },
}

impl OtlpError {
    /// The HTTP status to answer with: 413 for the limits, 400 otherwise.
    pub fn status(&self) -> u16 {
        match self {
            Self::TooManyRecords { .. } | Self::RecordTooLarge { .. } | Self::TooLarge { .. } => {
                413
            }
            Self::Protobuf { .. } | Self::Json(_) | Self::JsonValue { .. } => 400,
        }
    }

    /// The answer's body in `encoding`: [`error_body`] of this error's text.
    pub fn body(&self, encoding: Encoding) -> Vec<u8> {
        error_body(encoding, &self.to_string())
    }
}

/// Decodes an OTLP/HTTP logs body (already decompressed) with [`LIMITS`].
pub fn decode(body: &[u8], encoding: Encoding) -> Result<Vec<Event>, OtlpError> {
    decode_with(body, encoding, &LIMITS)
}

/// Decodes an OTLP/HTTP logs body (already decompressed) with the given limits.
pub fn decode_with(
    body: &[u8],
    encoding: Encoding,
    limits: &Limits,
) -> Result<Vec<Event>, OtlpError> {
    let mut sink = Sink {
        limits,
        events: Vec::new(),
        total: 0,
    };
    match encoding {
        Encoding::Protobuf => wire::walk(body, &mut sink)?,
        Encoding::Json => json::walk(body, &mut sink)?,
    }
    Ok(sink.events)
}

/// The body of a successful answer: an empty `ExportLogsServiceResponse` (no bytes in protobuf,
/// `{}` in JSON), or one with `partialSuccess` when `rejected` is not 0 or `message` not empty.
///
/// ```
/// use jobgraph_intake::otlp::{success_body, Encoding};
/// assert_eq!(success_body(Encoding::Json, 0, ""), b"{}");
/// assert!(success_body(Encoding::Protobuf, 0, "").is_empty());
/// assert_eq!(success_body(Encoding::Json, 2, "2 records had no body"),
///            br#"{"partialSuccess":{"rejectedLogRecords":"2","errorMessage":"2 records had no body"}}"#);
/// ```
pub fn success_body(encoding: Encoding, rejected: u64, message: &str) -> Vec<u8> {
    let partial = rejected != 0 || !message.is_empty();
    match encoding {
        Encoding::Protobuf => proto::ExportLogsServiceResponse {
            partial_success: partial.then(|| proto::ExportLogsPartialSuccess {
                rejected_log_records: i64::try_from(rejected).unwrap_or(i64::MAX),
                error_message: message.to_string(),
            }),
        }
        .encode_to_vec(),
        // int64 as a string, as the protobuf JSON mapping writes it.
        Encoding::Json if partial => serde_json::to_vec(&json!({"partialSuccess": {
            "rejectedLogRecords": rejected.to_string(), "errorMessage": message}}))
        .unwrap_or_default(),
        Encoding::Json => b"{}".to_vec(),
    }
}

/// The body of an error answer: a `google.rpc.Status` with code 3 (INVALID_ARGUMENT) and
/// `message`, in `encoding`.
///
/// ```
/// use jobgraph_intake::otlp::{error_body, Encoding};
/// assert_eq!(error_body(Encoding::Json, "bad"), br#"{"code":3,"message":"bad"}"#);
/// assert_eq!(error_body(Encoding::Protobuf, "bad"), b"\x08\x03\x12\x03bad");
/// ```
pub fn error_body(encoding: Encoding, message: &str) -> Vec<u8> {
    match encoding {
        Encoding::Protobuf => proto::Status {
            code: 3,
            message: message.to_string(),
        }
        .encode_to_vec(),
        Encoding::Json => {
            serde_json::to_vec(&json!({"code": 3, "message": message})).unwrap_or_default()
        }
    }
}

/// A resource as events carry it: its tags, and its size on the wire.
struct ResourceCtx {
    tags: Map<String, Value>,
    size: usize,
}

impl ResourceCtx {
    fn new(resource: &proto::Resource, size: usize) -> ResourceCtx {
        let mut tags = Map::new();
        for kv in &resource.attributes {
            for value in tag_values(kv.value.as_ref().and_then(|v| v.value.as_ref())) {
                add_tag(&mut tags, &kv.key, value);
            }
        }
        for (from, to) in [("service.name", "service"), ("host.name", "host")] {
            let values: Vec<String> = match tags.get(from) {
                Some(Value::Array(values)) => values
                    .iter()
                    .filter_map(|v| v.as_str().map(String::from))
                    .collect(),
                _ => continue,
            };
            for value in values {
                add_tag(&mut tags, to, value);
            }
        }
        ResourceCtx { tags, size }
    }
}

/// A scope as events carry it.
struct ScopeCtx {
    name: String,
    version: String,
    size: usize,
}

/// Where decoded records go, under the limits.
struct Sink<'l> {
    limits: &'l Limits,
    events: Vec<Event>,
    total: usize,
}

impl Sink<'_> {
    /// Admits one more record of `size` bytes (before decoding it); `at` says where it is.
    fn admit(
        &mut self,
        resource: &ResourceCtx,
        scope: &ScopeCtx,
        size: usize,
        at: &dyn std::fmt::Display,
    ) -> Result<(), OtlpError> {
        if self.events.len() >= self.limits.max_events {
            return Err(OtlpError::TooManyRecords {
                limit: self.limits.max_events,
            });
        }
        if size > self.limits.max_event_bytes {
            return Err(OtlpError::RecordTooLarge {
                at: at.to_string(),
                size,
                limit: self.limits.max_event_bytes,
            });
        }
        self.total = self
            .total
            .saturating_add(resource.size)
            .saturating_add(scope.size)
            .saturating_add(size);
        if self.total > self.limits.max_total_bytes {
            return Err(OtlpError::TooLarge {
                at: at.to_string(),
                limit: self.limits.max_total_bytes,
            });
        }
        Ok(())
    }

    fn push(&mut self, resource: &ResourceCtx, scope: &ScopeCtx, record: proto::LogRecord) {
        self.events.push(record_event(resource, scope, record));
    }
}

fn record_event(resource: &ResourceCtx, scope: &ScopeCtx, record: proto::LogRecord) -> Event {
    let mut event = EventBuilder {
        tags: resource.tags.clone(),
        ..EventBuilder::default()
    };
    let nanos = match record.time_unix_nano {
        0 => record.observed_time_unix_nano,
        t => t,
    };
    if nanos != 0 {
        event.timestamp = i64::try_from(nanos / 1_000_000).ok();
    }
    event.severity = u8::try_from(record.severity_number)
        .ok()
        .filter(|n| (1..=24).contains(n))
        .or_else(|| severity::from_text(&record.severity_text));
    if !record.severity_text.is_empty() {
        event.tag("status", record.severity_text);
    }
    for kv in record.attributes {
        event
            .attributes
            .insert(kv.key, any_json(kv.value.and_then(|v| v.value)));
    }
    match record.body.and_then(|b| b.value) {
        None => {}
        Some(Any::StringValue(s)) => event.message = Some(s),
        Some(other) => {
            let body = any_json(Some(other));
            event.message = Some(serde_json::to_string(&body).unwrap_or_default());
            event.attributes.insert("body".into(), body);
        }
    }
    for (key, id) in [("trace_id", &record.trace_id), ("span_id", &record.span_id)] {
        if id.iter().any(|b| *b != 0) {
            event.attributes.insert(key.into(), hex(id).into());
        }
    }
    if record.flags != 0 {
        event
            .attributes
            .insert("trace_flags".into(), record.flags.into());
    }
    if !record.event_name.is_empty() {
        event
            .attributes
            .insert("event.name".into(), record.event_name.into());
    }
    if !scope.name.is_empty() {
        event
            .attributes
            .insert("otel.scope.name".into(), scope.name.clone().into());
    }
    if !scope.version.is_empty() {
        event
            .attributes
            .insert("otel.scope.version".into(), scope.version.clone().into());
    }
    event.build()
}

/// An `AnyValue` as JSON (see the module's table).
fn any_json(value: Option<Any>) -> Value {
    match value {
        None => Value::Null,
        Some(Any::StringValue(s)) => s.into(),
        Some(Any::BoolValue(b)) => b.into(),
        Some(Any::IntValue(i)) => i.into(),
        Some(Any::DoubleValue(d)) => {
            serde_json::Number::from_f64(d).map_or_else(|| double_text(d).into(), Value::Number)
        }
        Some(Any::BytesValue(b)) => base64::engine::general_purpose::STANDARD.encode(b).into(),
        Some(Any::ArrayValue(a)) => a.values.into_iter().map(|v| any_json(v.value)).collect(),
        Some(Any::KvlistValue(kv)) => Value::Object(
            kv.values
                .into_iter()
                .map(|kv| (kv.key, any_json(kv.value.and_then(|v| v.value))))
                .collect(),
        ),
    }
}

/// The text of a double that JSON has no number for.
fn double_text(d: f64) -> &'static str {
    if d.is_nan() {
        "NaN"
    } else if d > 0.0 {
        "Infinity"
    } else {
        "-Infinity"
    }
}

/// A resource attribute's value as tag values.
fn tag_values(value: Option<&Any>) -> Vec<String> {
    match value {
        None => Vec::new(),
        Some(Any::ArrayValue(a)) => a
            .values
            .iter()
            .filter_map(|v| scalar_text(v.value.as_ref()))
            .collect(),
        Some(other) => scalar_text(Some(other)).into_iter().collect(),
    }
}

fn scalar_text(value: Option<&Any>) -> Option<String> {
    Some(match value? {
        Any::StringValue(s) => s.clone(),
        Any::BoolValue(b) => b.to_string(),
        Any::IntValue(i) => i.to_string(),
        Any::DoubleValue(d) if d.is_finite() => d.to_string(),
        Any::DoubleValue(d) => double_text(*d).to_string(),
        Any::BytesValue(b) => base64::engine::general_purpose::STANDARD.encode(b),
        other => serde_json::to_string(&any_json(Some(other.clone()))).unwrap_or_default(),
    })
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        text.push(char::from(DIGITS[usize::from(b >> 4)]));
        text.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    text
}

#[cfg(test)]
mod tests;
