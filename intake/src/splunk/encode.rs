//! Events encoded as a `/services/collector/event` body, for the `splunk-log-sink`.

use serde_json::{Map, Value, json};

use super::{object_message, object_severity};
use crate::event::{EventView, take_tag};
use crate::{Event, severity};

/// Encodes events as a `/services/collector/event` body: event objects, one per line; see the
/// module's documentation for the fields.
///
/// ```
/// let event = serde_json::json!({"eventTimestamp": 1437522387245i64, "message": "hi", "tags": {"host": ["h"], "env": ["prod"]}});
/// let body = jobgraph_intake::splunk::encode(&[event.as_object().unwrap().clone()]);
/// assert_eq!(String::from_utf8(body).unwrap(),
///            "{\"time\":1437522387.245,\"host\":\"h\",\"fields\":{\"env\":\"prod\"},\"event\":\"hi\"}\n");
/// ```
pub fn encode(events: &[Event]) -> Vec<u8> {
    let mut out = Vec::new();
    for event in events {
        if serde_json::to_writer(&mut out, &encode_event(event)).is_ok() {
            out.push(b'\n');
        }
    }
    out
}

fn encode_event(event: &Event) -> Map<String, Value> {
    let view = EventView { event };
    let mut object = Map::new();
    if let Some(ms) = view.timestamp_ms("eventTimestamp").filter(|ms| *ms >= 0) {
        let time = serde_json::from_str::<Value>(&format!("{}.{:03}", ms / 1000, ms % 1000));
        object.insert(
            "time".into(),
            time.unwrap_or_else(|_| json!(ms as f64 / 1000.0)),
        );
    }
    let mut tags = view.tags();
    for key in ["host", "source", "sourcetype", "index"] {
        if let Some(first) = take_tag(&mut tags, key).into_iter().find(|v| !v.is_empty()) {
            object.insert(key.into(), first.into());
        }
    }
    if !tags.is_empty() {
        let fields = tags
            .into_iter()
            .map(|(key, mut values)| {
                let value = if values.len() == 1 {
                    Value::String(values.pop().unwrap_or_default())
                } else {
                    json!(values)
                };
                (key.to_string(), value)
            })
            .collect();
        object.insert("fields".into(), Value::Object(fields));
    }
    let message = view.message();
    let severity = view.severity();
    let attributes = view.attributes().filter(|a| !a.is_empty());
    let body = match (attributes, &message) {
        (None, Some(message)) if severity.is_none() && !message.is_empty() => {
            Value::String(message.clone())
        }
        _ => {
            let mut inner = Map::new();
            let attributes = attributes.cloned().unwrap_or_default();
            if let Some(message) = &message
                && (attributes.is_empty() || object_message(&attributes) != *message)
            {
                inner.insert("message".into(), message.clone().into());
            }
            for (key, value) in attributes {
                if !inner.contains_key(&key) {
                    inner.insert(key, value);
                }
            }
            if let Some(severity) = severity
                && object_severity(&inner) != Some(severity)
                && let Some(name) = severity::short_name(severity)
            {
                inner.insert("severity".into(), name.into());
            }
            Value::Object(inner)
        }
    };
    object.insert("event".into(), body);
    object
}
