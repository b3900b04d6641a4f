//! New Relic's Log API (`POST https://log-api.newrelic.com/log/v1`, `Api-Key`), for the
//! `newrelic-log-sink`: the detailed JSON form, one block of `logs` (what New Relic's own
//! `newrelic-telemetry-sdk` `LogClient` writes).
//!
//! | event | log |
//! |---|---|
//! | `message` | `message` |
//! | `eventTimestamp` (ms) | `timestamp` (ms) |
//! | `severity` | `attributes.level` (`INFO`, `WARN`, `ERROR`, …) |
//! | tag `service` | `attributes["service.name"]` |
//! | tag `host` | `attributes.hostname` |
//! | other tags | `attributes[tag]`: the value, or the values joined by `,` |
//! | `attributes` | `attributes`, flattened with `.` (`{"http": {"status": 200}}` → `"http.status": 200`) |
//!
//! New Relic's attribute values are strings, numbers and booleans: arrays are written as their
//! JSON text.

use serde_json::{Map, Value, json};

use crate::event::{EventView, take_tag};
use crate::{Event, severity};

/// Encodes events as a Log API body: `[{"logs": [{"message", "timestamp", "attributes"}]}]`.
///
/// ```
/// let event = serde_json::json!({"eventTimestamp": 1700000000000i64, "message": "hi", "severity": 17,
///     "tags": {"service": ["api"], "host": ["web-1"], "env": ["prod"]}, "attributes": {"http": {"status": 500}}});
/// let body = jobgraph_intake::newrelic::encode(&[event.as_object().unwrap().clone()]);
/// let doc: serde_json::Value = serde_json::from_slice(&body).unwrap();
/// assert_eq!(doc[0]["logs"][0], serde_json::json!({"message": "hi", "timestamp": 1700000000000i64,
///     "attributes": {"http.status": 500, "level": "ERROR", "service.name": "api", "hostname": "web-1", "env": "prod"}}));
/// ```
pub fn encode(events: &[Event]) -> Vec<u8> {
    let logs: Vec<Value> = events.iter().map(encode_event).collect();
    serde_json::to_vec(&json!([{ "logs": logs }])).unwrap_or_default()
}

fn encode_event(event: &Event) -> Value {
    let view = EventView { event };
    let mut log = Map::new();
    log.insert("message".into(), view.message().unwrap_or_default().into());
    if let Some(ms) = view.timestamp_ms("eventTimestamp") {
        log.insert("timestamp".into(), ms.into());
    }
    let mut attributes = Map::new();
    if let Some(fields) = view.attributes() {
        flatten("", fields, &mut attributes);
    }
    if let Some(name) = view.severity().and_then(severity::short_name) {
        attributes.insert("level".into(), name.into());
    }
    let mut tags = view.tags();
    for (tag, name) in [("service", "service.name"), ("host", "hostname")] {
        let values = take_tag(&mut tags, tag);
        if !values.is_empty() {
            attributes.insert(name.into(), values.join(",").into());
        }
    }
    for (key, values) in tags {
        attributes.insert(key.to_owned(), values.join(",").into());
    }
    if !attributes.is_empty() {
        log.insert("attributes".into(), Value::Object(attributes));
    }
    Value::Object(log)
}

/// `fields` flattened into `out` with `.`-joined keys; arrays as their JSON text.
fn flatten(prefix: &str, fields: &Map<String, Value>, out: &mut Map<String, Value>) {
    for (key, value) in fields {
        let key = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        match value {
            Value::Object(inner) => flatten(&key, inner, out),
            Value::Array(_) => {
                out.insert(key, value.to_string().into());
            }
            Value::Null => {}
            other => {
                out.insert(key, other.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_attributes_are_flattened_and_arrays_written_as_text() {
        let event = json!({"message": {"not": "text"}, "attributes": {"a": {"b": {"c": 1}}, "list": [1, 2], "gone": null},
                           "tags": {"team": ["a", "b"]}});
        let body = encode(&[event.as_object().unwrap().clone()]);
        let doc: Value = serde_json::from_slice(&body).unwrap();
        let log = &doc[0]["logs"][0];
        assert_eq!(log["message"], "{\"not\":\"text\"}");
        assert_eq!(
            log["attributes"],
            json!({"a.b.c": 1, "list": "[1,2]", "team": "a,b"})
        );
        assert!(log.get("timestamp").is_none());
    }

    #[test]
    fn no_events_is_one_empty_block() {
        assert_eq!(encode(&[]), br#"[{"logs":[]}]"#);
    }
}
