//! The Datadog HTTP log intake (`POST /api/v2/logs`), as the Datadog Agent, Fluent Bit's
//! `datadog` output and `datadog-api-client`'s `LogsApi.submit_log` send it: a JSON array of log
//! objects (one object alone is read as an array of one).
//!
//! ## Decoding (a log object → an event)
//!
//! | log field | event |
//! |---|---|
//! | `message` | `message` (a string as it is; another value as its JSON text; `null` left out) |
//! | `ddsource` | tag `source` |
//! | `ddtags` (`"env:prod,team:a,beta"`, or an array of such strings) | tags: split on commas, each trimmed, empty ones skipped; `key:value` split at the first colon; a bare `beta` is the tag `beta` with the value `""` |
//! | `service` | tag `service` |
//! | `hostname`, else `host` | tag `host` (when both are given, `host` stays an attribute) |
//! | `status` | tag `status` (the text as given) and `severity` ([`crate::severity::from_text`]: `emergency`/`emerg` 21, `alert` 19, `critical`/`crit` 18, `error`/`err` 17, `warning`/`warn` 13, `notice` 10, `info` 9, `debug` 5, `trace` 1, …; a syslog number 0–7, or its text, as syslog; anything else: no severity) |
//! | `timestamp`, else `@timestamp`, else `date` | `eventTimestamp`: epoch milliseconds (a number or numeric text) or ISO 8601 text (UTC when it has no offset); one that is neither (or negative) stays an attribute |
//! | every other field | `attributes`, as given (nested objects kept), in the order given |
//!
//! Empty strings in `ddsource`, `service`, `hostname`/`host` and `status` make no tag. Datadog's
//! own preprocessing aliases (`msg`, `level`, `syslog.hostname`, …) are not applied: they stay
//! attributes, which a pipeline can remap.
//!
//! Limits ([`LIMITS`], Datadog's documented ones): at most 1000 logs per request, 5,000,000 bytes
//! of uncompressed body, 1,000,000 bytes per log. As Datadog does, a log larger than that is
//! kept with its `message` truncated (at a character boundary, ending with
//! [`TRUNCATION_MARKER`]) so that it fits; a log too large even with an empty message fails the
//! request ([`DatadogError::LogTooLarge`]).
//!
//! ## Encoding (events → what a Datadog intake accepts), [`encode`]
//!
//! | event | log field |
//! |---|---|
//! | `message` | `message` |
//! | tag `source` | `ddsource` (first value) |
//! | tag `service` | `service` (first value) |
//! | tag `host` | `hostname` (first value) |
//! | tag `status`, else `severity` | `status` (the tag's first value; else [`crate::severity::datadog_status`]) |
//! | the other tags, and the further values of the four above | `ddtags`: `key:value` joined by commas, a tag with several values repeated, an empty value as the bare `key`; commas (and colons in keys) become `_` |
//! | `eventTimestamp` | `timestamp` (epoch milliseconds) |
//! | `attributes` | their fields at top level, in order; one named like a field written above is left out |
//!
//! `decode(encode(events))` gives the events back (plus, for an event with a severity and no
//! tag `status`, that tag with the status word written) when their tags use no commas and no
//! colon in a key, their severities are those a status word names exactly (1, 5, 9, 10, 13, 17,
//! 18, 19, 21) and their attributes have no field named `message`, `ddsource`, `ddtags`,
//! `service`, `hostname`, `host`, `status`, `timestamp`, `@timestamp` or `date` that the fields
//! above leave free.
//! Their `id` and `receivedTimestamp` are not sent.
//!
//! ## Answers
//!
//! Success is HTTP 202 ([`SUCCESS_STATUS`]) with the body `{}` ([`success_body`]); an error is
//! `{"errors":[{"status":"400","title":"Bad Request","detail":"…"}]}` ([`error_body`],
//! [`DatadogError::body`]).
//!
//! ```
//! use jobgraph_intake::datadog;
//! let body = br#"[{"message":"hi","ddtags":"env:prod,beta","status":"warn","timestamp":1700000000000,"user":{"id":7}}]"#;
//! let events = datadog::decode(body).unwrap();
//! assert_eq!(serde_json::Value::Object(events[0].clone()), serde_json::json!({
//!     "eventTimestamp": 1700000000000i64,
//!     "message": "hi",
//!     "severity": 13,
//!     "tags": {"env": ["prod"], "beta": [""], "status": ["warn"]},
//!     "attributes": {"user": {"id": 7}},
//! }));
//! assert_eq!(datadog::decode(&datadog::encode(&events)).unwrap(), events);
//! ```

use std::cell::Cell;

use serde::de::{Deserializer as _, Error as _, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use crate::event::{EventBuilder, EventView, iso8601_ms, kind_of, number_ms, take_tag, text_of};
use crate::{Event, Limits, severity};

/// Datadog's documented limits: 1000 logs, 1,000,000 bytes a log, 5,000,000 bytes a request.
pub const LIMITS: Limits = Limits {
    max_events: 1000,
    max_event_bytes: 1_000_000,
    max_total_bytes: 5_000_000,
};

/// The HTTP status of a successful intake request.
pub const SUCCESS_STATUS: u16 = 202;

/// What ends a truncated message (the Datadog Agent's marker).
pub const TRUNCATION_MARKER: &str = "...TRUNCATED...";

/// Why a Datadog intake body was refused; [`DatadogError::status`] and [`DatadogError::body`]
/// give the answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DatadogError {
    /// The body (or a log in it) is not JSON.
    #[error(
        "the body is not valid JSON: {0}; send a JSON array of log objects, such as [{{\"message\":\"…\"}}]"
    )]
    Json(String),
    /// The body is JSON, but neither an array nor an object.
    #[error("the body is {found}; send a JSON array of log objects (or one log object)")]
    NotLogs {
        /// What it is: "a string", "nothing", …
        found: &'static str,
    },
    /// An item of the array is not an object.
    #[error(
        "log {index} (JSON pointer /{index}, byte {offset}) is {found}, not an object; each log is a JSON object such as {{\"message\":\"…\",\"service\":\"…\"}}"
    )]
    NotAnObject {
        /// Its index in the array, from 0.
        index: usize,
        /// Its byte offset in the body.
        offset: usize,
        /// What it is.
        found: &'static str,
    },
    /// More logs than the limit.
    #[error("the body has more than {limit} logs; send at most {limit} logs per request")]
    TooManyLogs {
        /// The limit.
        limit: usize,
    },
    /// A log larger than the limit even with its message truncated away.
    #[error(
        "log {index} (JSON pointer /{index}, byte {offset}) is {size} bytes, more than the {limit} bytes a log may take, and not because of its message (which would be truncated); send fewer or smaller attributes"
    )]
    LogTooLarge {
        /// Its index in the array, from 0.
        index: usize,
        /// Its byte offset in the body.
        offset: usize,
        /// Its size in bytes.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// The body is larger than the limit.
    #[error(
        "the body is {size} bytes, more than the {limit} bytes of logs a request may carry; send smaller batches"
    )]
    PayloadTooLarge {
        /// The body's size.
        size: usize,
        /// The limit.
        limit: usize,
    },
}

impl DatadogError {
    /// The HTTP status to answer with: 413 for the limits, 400 otherwise.
    pub fn status(&self) -> u16 {
        match self {
            Self::TooManyLogs { .. } | Self::LogTooLarge { .. } | Self::PayloadTooLarge { .. } => {
                413
            }
            Self::Json(_) | Self::NotLogs { .. } | Self::NotAnObject { .. } => 400,
        }
    }

    /// The answer's body: [`error_body`] of the status and this error's text.
    pub fn body(&self) -> Vec<u8> {
        error_body(self.status(), &self.to_string())
    }
}

/// The body of a successful answer: `{}`.
pub fn success_body() -> Vec<u8> {
    b"{}".to_vec()
}

/// The body of an error answer, as Datadog writes it:
/// `{"errors":[{"status":"400","title":"Bad Request","detail":"…"}]}`.
///
/// ```
/// let body = jobgraph_intake::datadog::error_body(413, "too big");
/// assert_eq!(body, br#"{"errors":[{"status":"413","title":"Payload Too Large","detail":"too big"}]}"#);
/// ```
pub fn error_body(status: u16, detail: &str) -> Vec<u8> {
    let title = match status {
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        413 => "Payload Too Large",
        415 => "Unsupported Media Type",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Error",
    };
    let body =
        json!({"errors": [{"status": status.to_string(), "title": title, "detail": detail}]});
    serde_json::to_vec(&body).unwrap_or_default()
}

/// Decodes an intake body (already decompressed) with Datadog's limits ([`LIMITS`]).
pub fn decode(body: &[u8]) -> Result<Vec<Event>, DatadogError> {
    decode_with(body, &LIMITS)
}

/// Decodes an intake body (already decompressed) with the given limits.
pub fn decode_with(body: &[u8], limits: &Limits) -> Result<Vec<Event>, DatadogError> {
    if body.len() > limits.max_total_bytes {
        return Err(DatadogError::PayloadTooLarge {
            size: body.len(),
            limit: limits.max_total_bytes,
        });
    }
    let items = split_items(body, limits.max_events)?;
    let mut events = Vec::with_capacity(items.len());
    for (index, raw) in items.into_iter().enumerate() {
        let offset = (raw.get().as_ptr() as usize).saturating_sub(body.as_ptr() as usize);
        events.push(decode_log(index, offset, raw.get(), limits)?);
    }
    Ok(events)
}

/// The body's logs, each as its JSON text; at most `max` of them.
fn split_items(body: &[u8], max: usize) -> Result<Vec<&RawValue>, DatadogError> {
    let json_error = |e: serde_json::Error| DatadogError::Json(e.to_string());
    match body.iter().find(|b| !b.is_ascii_whitespace()) {
        None => Err(DatadogError::NotLogs { found: "empty" }),
        Some(b'[') => {
            let over = Cell::new(false);
            let mut de = serde_json::Deserializer::from_slice(body);
            let items = de.deserialize_seq(Items { max, over: &over });
            if over.get() {
                return Err(DatadogError::TooManyLogs { limit: max });
            }
            let items = items.map_err(json_error)?;
            de.end().map_err(json_error)?;
            Ok(items)
        }
        Some(b'{') => {
            let item: &RawValue = serde_json::from_slice(body).map_err(json_error)?;
            if max == 0 {
                return Err(DatadogError::TooManyLogs { limit: max });
            }
            Ok(vec![item])
        }
        Some(_) => match serde_json::from_slice::<Value>(body) {
            Ok(value) => Err(DatadogError::NotLogs {
                found: kind_of(&value),
            }),
            Err(e) => Err(json_error(e)),
        },
    }
}

/// The items of the top-level array, stopping past `max`.
struct Items<'a> {
    max: usize,
    over: &'a Cell<bool>,
}

impl<'de> Visitor<'de> for Items<'_> {
    type Value = Vec<&'de RawValue>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an array of log objects")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<&'de RawValue>()? {
            if items.len() >= self.max {
                self.over.set(true);
                return Err(A::Error::custom("too many logs"));
            }
            items.push(item);
        }
        Ok(items)
    }
}

fn decode_log(
    index: usize,
    offset: usize,
    text: &str,
    limits: &Limits,
) -> Result<Event, DatadogError> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| DatadogError::Json(format!("log {index} (byte {offset}): {e}")))?;
    let Value::Object(log) = value else {
        return Err(DatadogError::NotAnObject {
            index,
            offset,
            found: kind_of(&value),
        });
    };
    let host_key = if log.contains_key("hostname") {
        "hostname"
    } else {
        "host"
    };
    let time_key = ["timestamp", "@timestamp", "date"]
        .into_iter()
        .find(|k| log.contains_key(*k))
        .unwrap_or("timestamp");
    let mut event = EventBuilder::default();
    for (key, value) in log {
        if value.is_null() {
            if key != "message" {
                event.attributes.insert(key, value);
            }
            continue;
        }
        match key.as_str() {
            "message" => event.message = Some(text_of(&value)),
            "ddsource" => nonempty_tag(&mut event, "source", &value),
            "service" => nonempty_tag(&mut event, "service", &value),
            "ddtags" => ddtags(&mut event, &value),
            "status" => {
                event.severity = match &value {
                    Value::Number(n) => n.as_u64().and_then(severity::from_syslog),
                    Value::String(s) => severity::from_text(s)
                        .or_else(|| s.trim().parse().ok().and_then(severity::from_syslog)),
                    _ => None,
                };
                nonempty_tag(&mut event, "status", &value);
            }
            k if k == host_key => nonempty_tag(&mut event, "host", &value),
            k if k == time_key => {
                let ms = number_ms(&value).or_else(|| value.as_str().and_then(iso8601_ms));
                match ms.filter(|ms| *ms >= 0) {
                    Some(ms) => event.timestamp = Some(ms),
                    None => {
                        event.attributes.insert(key, value);
                    }
                }
            }
            _ => {
                event.attributes.insert(key, value);
            }
        }
    }
    if text.len() > limits.max_event_bytes {
        let excess = text.len() - limits.max_event_bytes;
        let message = event
            .message
            .as_mut()
            .filter(|m| m.len() >= excess + TRUNCATION_MARKER.len());
        let Some(message) = message else {
            return Err(DatadogError::LogTooLarge {
                index,
                offset,
                size: text.len(),
                limit: limits.max_event_bytes,
            });
        };
        let mut keep = message.len() - excess - TRUNCATION_MARKER.len();
        while !message.is_char_boundary(keep) {
            keep -= 1;
        }
        message.truncate(keep);
        message.push_str(TRUNCATION_MARKER);
    }
    Ok(event.build())
}

fn nonempty_tag(event: &mut EventBuilder, key: &str, value: &Value) {
    let text = text_of(value);
    if !text.is_empty() {
        event.tag(key, text);
    }
}

/// `ddtags`: a string of comma-separated tags, or an array of such strings.
fn ddtags(event: &mut EventBuilder, value: &Value) {
    let texts: Vec<String> = match value {
        Value::Array(items) => items.iter().map(text_of).collect(),
        other => vec![text_of(other)],
    };
    for text in &texts {
        for tag in text.split(',').map(str::trim).filter(|t| !t.is_empty()) {
            let (key, value) = tag.split_once(':').unwrap_or((tag, ""));
            event.tag(key.trim(), value.trim().to_string());
        }
    }
}

/// Encodes events as a Datadog intake body (a JSON array of log objects); see the module's
/// documentation for the fields.
///
/// ```
/// let event = serde_json::json!({"message": "hi", "severity": 17, "tags": {"host": ["a"], "env": ["prod", "eu"]}});
/// let body = jobgraph_intake::datadog::encode(&[event.as_object().unwrap().clone()]);
/// assert_eq!(String::from_utf8(body).unwrap(),
///            r#"[{"message":"hi","hostname":"a","status":"error","ddtags":"env:prod,env:eu"}]"#);
/// ```
pub fn encode(events: &[Event]) -> Vec<u8> {
    let logs: Vec<Value> = events
        .iter()
        .map(|e| Value::Object(encode_log(e)))
        .collect();
    serde_json::to_vec(&logs).unwrap_or_default()
}

fn encode_log(event: &Event) -> Map<String, Value> {
    let view = EventView { event };
    let mut tags = view.tags();
    let mut log = Map::new();
    if let Some(message) = view.message() {
        log.insert("message".into(), message.into());
    }
    let mut ddtags = Vec::new();
    for (field, tag) in [
        ("ddsource", "source"),
        ("service", "service"),
        ("hostname", "host"),
        ("status", "status"),
    ] {
        let mut values = take_tag(&mut tags, tag).into_iter();
        match values.next() {
            Some(first) if !first.is_empty() => {
                log.insert(field.into(), first.into());
            }
            Some(_) => ddtags.push(ddtag(tag, "")),
            None => {}
        }
        ddtags.extend(values.map(|v| ddtag(tag, &v)));
    }
    if !log.contains_key("status")
        && let Some(status) = view.severity().and_then(severity::datadog_status)
    {
        log.insert("status".into(), status.into());
    }
    for (key, values) in tags {
        ddtags.extend(values.iter().map(|v| ddtag(key, v)));
    }
    if !ddtags.is_empty() {
        log.insert("ddtags".into(), ddtags.join(",").into());
    }
    if let Some(ms) = view.timestamp_ms("eventTimestamp") {
        log.insert("timestamp".into(), ms.into());
    }
    for (key, value) in view.attributes().into_iter().flatten() {
        if !log.contains_key(key) {
            log.insert(key.clone(), value.clone());
        }
    }
    log
}

fn ddtag(key: &str, value: &str) -> String {
    let key = clean(key.trim(), ",:");
    let value = clean(value.trim(), ",");
    if value.is_empty() {
        key
    } else {
        format!("{key}:{value}")
    }
}

fn clean(text: &str, bad: &str) -> String {
    text.chars()
        .map(|c| if bad.contains(c) { '_' } else { c })
        .collect()
}

#[cfg(test)]
mod tests;
