//! The Splunk HTTP Event Collector: `/services/collector/event` (and `/services/collector`),
//! whose body is one or more JSON event objects one after the other (whitespace between them or
//! none), and `/services/collector/raw`, whose body is text, one event per line.
//!
//! ## Decoding an event object ([`decode_event`])
//!
//! | HEC field | event |
//! |---|---|
//! | `event` a string | `message` |
//! | `event` an object | `attributes` = the object; `message` = its `message`, else `msg`, else `log` when that is a string, else the object's JSON text; `severity` from its `severity`, else `level` ([`crate::severity::from_text`]) when recognised |
//! | `event` another value | `message` = its JSON text |
//! | `time` (epoch seconds: a number or its text, `1437522387.245`) | `eventTimestamp` (milliseconds; digits past them dropped) |
//! | `host`, `source`, `sourcetype`, `index` | the tags of the same names (empty ones left out) |
//! | `fields` (`{key: "value" \| ["values"]}`; numbers and booleans as their text, `null` skipped) | tags |
//!
//! Other fields are ignored, as Splunk ignores them. An object without `event` fails with
//! [`HecError::EventRequired`], one whose `event` is `""` or `null` with
//! [`HecError::EventBlank`], a `time` that is not epoch seconds or anything not JSON with
//! [`HecError::InvalidDataFormat`], a `fields` that is not strings with
//! [`HecError::IndexedFields`]; all name the event (from 0, as Splunk's `invalid-event-number`).
//!
//! ## Decoding raw text ([`decode_raw`])
//!
//! One event per line (LF or CRLF), empty lines skipped, bytes that are not UTF-8 replaced by
//! U+FFFD: the line is the `message`; the query parameters ([`RawMeta`]) give `host`, `source`,
//! `sourcetype`, `index` (tags) and `time` (`eventTimestamp`) to every line.
//!
//! Limits ([`LIMITS`], ours): 100,000 events, 1 MiB an event (object or line), 16 MiB a body.
//!
//! ## Encoding ([`encode`], for the `splunk-log-sink`)
//!
//! Event objects one per line: `time` = `eventTimestamp` in seconds with a millisecond
//! fraction; `host`, `source`, `sourcetype`, `index` = those tags' first values (further values
//! are not sent); `fields` = the other tags (one value: a string; several: an array); `event` =
//! the `message` text when the event has neither attributes nor a severity, else an object:
//! the attributes, with `message` set when reading the object back would not give the event's
//! message, and `severity` (the OpenTelemetry short name, `ERROR`) when it would not give its
//! severity. An event with neither message nor attributes sends `{}` (Splunk refuses a blank
//! `event`). So `decode_event(encode(events))` gives back events decoded from HEC.
//!
//! ## Answers
//!
//! [`success_body`] (HTTP 200, `{"text":"Success","code":0}`) and [`HecError`], whose
//! [`status`](HecError::status) and [`body`](HecError::body) are Splunk's
//! (`{"text":"Invalid data format","code":6,"invalid-event-number":3}`), with a `detail` added
//! that says what is wrong and how to fix it.
//!
//! ```
//! use jobgraph_intake::splunk;
//! let body = br#"{"time":1437522387.245,"host":"web-1","event":"hello"}{"event":{"message":"m","level":"warn"},"fields":{"env":"prod"}}"#;
//! let events = splunk::decode_event(body).unwrap();
//! assert_eq!(events[0]["eventTimestamp"], 1437522387245i64);
//! assert_eq!(events[0]["tags"]["host"][0], "web-1");
//! assert_eq!(events[1]["severity"], 13);
//! assert_eq!(splunk::decode_event(&splunk::encode(&events)).unwrap(), events);
//! ```

mod answers;
mod encode;

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::event::{EventBuilder, kind_of, text_of};
use crate::{Event, Limits, severity};

pub use answers::{HecError, success_body};
pub use encode::encode;

/// Our limits for the HEC: 100,000 events, 1 MiB an event, 16 MiB a body.
pub const LIMITS: Limits = Limits {
    max_events: 100_000,
    max_event_bytes: 1 << 20,
    max_total_bytes: 16 << 20,
};

/// The HTTP status of a successful request.
pub const SUCCESS_STATUS: u16 = 200;

/// The metadata of `/services/collector/raw`, from its query parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RawMeta {
    /// `host`.
    pub host: Option<String>,
    /// `source`.
    pub source: Option<String>,
    /// `sourcetype`.
    pub sourcetype: Option<String>,
    /// `index`.
    pub index: Option<String>,
    /// `time`: epoch seconds, as text (`1437522387.245`).
    pub time: Option<String>,
}

/// Decodes a `/services/collector/event` body (already decompressed) with [`LIMITS`].
pub fn decode_event(body: &[u8]) -> Result<Vec<Event>, HecError> {
    decode_event_with(body, &LIMITS)
}

/// Decodes a `/services/collector/event` body (already decompressed) with the given limits.
pub fn decode_event_with(body: &[u8], limits: &Limits) -> Result<Vec<Event>, HecError> {
    if body.len() > limits.max_total_bytes {
        return Err(too_large(
            0,
            format!(
                "the body is {} bytes, more than {}; send smaller batches",
                body.len(),
                limits.max_total_bytes
            ),
        ));
    }
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(HecError::NoData);
    }
    let mut stream = serde_json::Deserializer::from_slice(body).into_iter::<&RawValue>();
    let mut events = Vec::new();
    loop {
        let index = events.len();
        let offset = stream.byte_offset();
        let raw = match stream.next() {
            None => return Ok(events),
            Some(Ok(raw)) => raw,
            Some(Err(e)) => {
                let detail = format!(
                    "event {index} (from byte {offset}) is not valid JSON: {e}; send JSON objects one after the other"
                );
                return Err(HecError::InvalidDataFormat {
                    event: index,
                    detail,
                });
            }
        };
        let offset = (raw.get().as_ptr() as usize).saturating_sub(body.as_ptr() as usize);
        if index >= limits.max_events {
            return Err(too_large(
                index,
                format!(
                    "the body has more than {} events; send at most {} per request",
                    limits.max_events, limits.max_events
                ),
            ));
        }
        if raw.get().len() > limits.max_event_bytes {
            let detail = format!(
                "event {index} (byte {offset}) is {} bytes, more than {}; send smaller events",
                raw.get().len(),
                limits.max_event_bytes
            );
            return Err(too_large(index, detail));
        }
        let value: Value =
            serde_json::from_str(raw.get()).map_err(|e| HecError::InvalidDataFormat {
                event: index,
                detail: format!("event {index} (byte {offset}): {e}"),
            })?;
        let Value::Object(object) = value else {
            let detail = format!(
                "event {index} (byte {offset}) is {}, not an object; send event objects one after the other ({{\"event\":…}}{{\"event\":…}}), not in an array",
                kind_of(&value)
            );
            return Err(HecError::InvalidDataFormat {
                event: index,
                detail,
            });
        };
        events.push(decode_object(index, offset, object)?);
    }
}

fn too_large(event: usize, detail: String) -> HecError {
    HecError::TooLarge { event, detail }
}

fn decode_object(
    index: usize,
    offset: usize,
    mut object: Map<String, Value>,
) -> Result<Event, HecError> {
    let mut event = EventBuilder::default();
    match object.shift_remove("event") {
        None => {
            return Err(HecError::EventRequired {
                event: index,
                offset,
            });
        }
        Some(Value::Null) => {
            return Err(HecError::EventBlank {
                event: index,
                offset,
            });
        }
        Some(Value::String(s)) if s.is_empty() => {
            return Err(HecError::EventBlank {
                event: index,
                offset,
            });
        }
        Some(Value::String(s)) => event.message = Some(s),
        Some(Value::Object(inner)) => {
            event.message = Some(object_message(&inner));
            event.severity = object_severity(&inner);
            event.attributes = inner;
        }
        Some(other) => event.message = Some(text_of(&other)),
    }
    if let Some(time) = object.get("time").filter(|t| !t.is_null()) {
        let ms = match time {
            Value::Number(n) => seconds_ms(&n.to_string()),
            Value::String(s) => seconds_ms(s),
            _ => None,
        };
        let Some(ms) = ms else {
            let detail = format!(
                "event {index} (byte {offset}): `time` must be epoch seconds such as 1437522387.245, found {}",
                text_of(time)
            );
            return Err(HecError::InvalidDataFormat {
                event: index,
                detail,
            });
        };
        event.timestamp = Some(ms);
    }
    for key in ["host", "source", "sourcetype", "index"] {
        if let Some(value) = object.get(key).filter(|v| !v.is_null()) {
            let text = text_of(value);
            if !text.is_empty() {
                event.tag(key, text);
            }
        }
    }
    match object.get("fields") {
        None | Some(Value::Null) => {}
        Some(Value::Object(fields)) => {
            for (key, value) in fields {
                let values = match value {
                    Value::Array(items) => items.as_slice(),
                    other => std::slice::from_ref(other),
                };
                for value in values {
                    if let Some(value) = scalar(index, key, value)? {
                        event.tag(key, value);
                    }
                }
            }
        }
        Some(other) => {
            let detail = format!(
                "event {index} (byte {offset}): `fields` must be an object of strings or arrays of strings, found {}",
                kind_of(other)
            );
            return Err(HecError::IndexedFields {
                event: index,
                detail,
            });
        }
    }
    Ok(event.build())
}

/// An indexed field's value as tag text (`None` for `null`, skipped).
fn scalar(index: usize, key: &str, value: &Value) -> Result<Option<String>, HecError> {
    match value {
        Value::Null => Ok(None),
        Value::String(s) => Ok(Some(s.clone())),
        Value::Number(_) | Value::Bool(_) => Ok(Some(text_of(value))),
        other => Err(HecError::IndexedFields {
            event: index,
            detail: format!(
                "fields.{key} of event {index} is {}; an indexed field is a string or an array of strings",
                kind_of(other)
            ),
        }),
    }
}

/// The message of an `event` object: its `message`, `msg` or `log` text, else its JSON text.
fn object_message(object: &Map<String, Value>) -> String {
    ["message", "msg", "log"]
        .iter()
        .find_map(|k| object.get(*k).and_then(Value::as_str))
        .map(String::from)
        .unwrap_or_else(|| serde_json::to_string(object).unwrap_or_default())
}

/// The severity of an `event` object: its `severity`, else its `level`, when recognised.
fn object_severity(object: &Map<String, Value>) -> Option<u8> {
    ["severity", "level"].iter().find_map(|k| {
        object
            .get(*k)
            .and_then(Value::as_str)
            .and_then(severity::from_text)
    })
}

/// Epoch milliseconds of epoch seconds given as text (`1437522387.245`; digits past the
/// milliseconds dropped; an exponent is read as a float). `None` if negative or not a number.
fn seconds_ms(text: &str) -> Option<i64> {
    let text = text.trim();
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if !whole.is_empty() && whole.len() <= 12 && digits(whole) && digits(fraction) {
        let seconds: i64 = whole.parse().ok()?;
        let millis = fraction
            .bytes()
            .chain(std::iter::repeat(b'0'))
            .take(3)
            .fold(0, |ms, d| ms * 10 + i64::from(d - b'0'));
        return seconds.checked_mul(1000)?.checked_add(millis);
    }
    let seconds: f64 = text.parse().ok()?;
    (seconds.is_finite() && (0.0..1e12).contains(&seconds))
        .then(|| (seconds * 1000.0).trunc() as i64)
}

/// Decodes a `/services/collector/raw` body (already decompressed) with [`LIMITS`].
///
/// ```
/// use jobgraph_intake::splunk::{decode_raw, RawMeta};
/// let meta = RawMeta { host: Some("web-1".into()), time: Some("1437522387".into()), ..RawMeta::default() };
/// let events = decode_raw(b"first line\r\n\r\nsecond line\n", &meta).unwrap();
/// assert_eq!(events.len(), 2);
/// assert_eq!(events[1]["message"], "second line");
/// assert_eq!(events[1]["eventTimestamp"], 1437522387000i64);
/// ```
pub fn decode_raw(body: &[u8], meta: &RawMeta) -> Result<Vec<Event>, HecError> {
    decode_raw_with(body, meta, &LIMITS)
}

/// Decodes a `/services/collector/raw` body (already decompressed) with the given limits.
pub fn decode_raw_with(
    body: &[u8],
    meta: &RawMeta,
    limits: &Limits,
) -> Result<Vec<Event>, HecError> {
    let timestamp = match meta.time.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        None => None,
        Some(time) => Some(seconds_ms(time).ok_or_else(|| HecError::InvalidDataFormat {
            event: 0,
            detail: format!("the query parameter time must be epoch seconds such as 1437522387.245, found {time:?}"),
        })?),
    };
    if body.len() > limits.max_total_bytes {
        return Err(too_large(
            0,
            format!(
                "the body is {} bytes, more than {}; send smaller batches",
                body.len(),
                limits.max_total_bytes
            ),
        ));
    }
    let mut events = Vec::new();
    let mut offset = 0;
    for line in body.split(|b| *b == b'\n') {
        let start = offset;
        offset += line.len() + 1;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            continue;
        }
        let index = events.len();
        if index >= limits.max_events {
            return Err(too_large(
                index,
                format!(
                    "the body has more than {} lines; send at most {} per request",
                    limits.max_events, limits.max_events
                ),
            ));
        }
        if line.len() > limits.max_event_bytes {
            return Err(too_large(
                index,
                format!(
                    "line {index} (byte {start}) is {} bytes, more than {}; send shorter lines",
                    line.len(),
                    limits.max_event_bytes
                ),
            ));
        }
        let mut event = EventBuilder {
            timestamp,
            message: Some(String::from_utf8_lossy(line).into_owned()),
            ..EventBuilder::default()
        };
        for (key, value) in [
            ("host", &meta.host),
            ("source", &meta.source),
            ("sourcetype", &meta.sourcetype),
            ("index", &meta.index),
        ] {
            if let Some(value) = value.as_ref().filter(|v| !v.is_empty()) {
                event.tag(key, value.clone());
            }
        }
        events.push(event.build());
    }
    if events.is_empty() {
        return Err(HecError::NoData);
    }
    Ok(events)
}

#[cfg(test)]
mod tests;
