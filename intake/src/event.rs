//! Events built by the decoders and read by the encoders.

use serde_json::{Map, Value};

use crate::Event;

/// An event being decoded; [`EventBuilder::build`] writes its fields in the documented order.
#[derive(Debug, Default)]
pub(crate) struct EventBuilder {
    pub timestamp: Option<i64>,
    pub message: Option<String>,
    pub severity: Option<u8>,
    pub tags: Map<String, Value>,
    pub attributes: Map<String, Value>,
}

impl EventBuilder {
    /// Adds `value` to the tag `key` unless the tag has it already.
    pub fn tag(&mut self, key: &str, value: String) {
        add_tag(&mut self.tags, key, value);
    }

    pub fn build(self) -> Event {
        let mut event = Map::new();
        if let Some(ms) = self.timestamp {
            event.insert("eventTimestamp".into(), ms.into());
        }
        if let Some(message) = self.message {
            event.insert("message".into(), message.into());
        }
        if let Some(severity) = self.severity {
            event.insert("severity".into(), severity.into());
        }
        if !self.tags.is_empty() {
            event.insert("tags".into(), Value::Object(self.tags));
        }
        if !self.attributes.is_empty() {
            event.insert("attributes".into(), Value::Object(self.attributes));
        }
        event
    }
}

/// Adds `value` to the tag `key` of `tags` unless the tag has it already.
pub(crate) fn add_tag(tags: &mut Map<String, Value>, key: &str, value: String) {
    let values = tags.entry(key).or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(values) = values
        && !values.iter().any(|v| v.as_str() == Some(value.as_str()))
    {
        values.push(Value::String(value));
    }
}

/// A value as text: a string as it is, anything else as its JSON text.
pub(crate) fn text_of(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}

/// "a string", "an object", … for error messages.
pub(crate) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Epoch milliseconds of an ISO 8601 date-time: with an offset (`Z`, `+02:00`), or without one
/// (read as UTC). `None` when it is not one.
pub(crate) fn iso8601_ms(text: &str) -> Option<i64> {
    let text = text.trim();
    if text.len() > 64 {
        return None;
    }
    if let Ok(ts) = text.parse::<jiff::Timestamp>() {
        return Some(ts.as_millisecond());
    }
    let dt = text.parse::<jiff::civil::DateTime>().ok()?;
    jiff::tz::Offset::UTC
        .to_timestamp(dt)
        .ok()
        .map(|ts| ts.as_millisecond())
}

/// Epoch milliseconds of a number (integer or not) or of a numeric string.
pub(crate) fn number_ms(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64().or_else(|| {
            let f = n.as_f64()?;
            (f.is_finite() && f.abs() < 9.0e15).then(|| f.trunc() as i64)
        }),
        Value::String(s) => {
            let s = s.trim();
            s.parse::<i64>().ok().or_else(|| {
                let f = s.parse::<f64>().ok()?;
                (f.is_finite() && f.abs() < 9.0e15).then(|| f.trunc() as i64)
            })
        }
        _ => None,
    }
}

/// What the encoders read of an event, leniently: fields of an unexpected type are left out
/// (or, for `message`, written as their JSON text).
pub(crate) struct EventView<'a> {
    pub event: &'a Event,
}

impl<'a> EventView<'a> {
    /// `eventTimestamp` (or another timestamp field) in epoch ms: an integer, a number, a
    /// numeric string or an ISO 8601 string.
    pub fn timestamp_ms(&self, field: &str) -> Option<i64> {
        let value = self.event.get(field)?;
        number_ms(value).or_else(|| value.as_str().and_then(iso8601_ms))
    }

    pub fn message(&self) -> Option<String> {
        match self.event.get("message")? {
            Value::Null => None,
            other => Some(text_of(other)),
        }
    }

    pub fn severity(&self) -> Option<u8> {
        let n = self.event.get("severity")?.as_u64()?;
        u8::try_from(n).ok().filter(|n| (1..=24).contains(n))
    }

    /// The tags, each with its values (strings; other values as their JSON text; a bare string
    /// as one value), tags with no value left out.
    pub fn tags(&self) -> Vec<(&'a str, Vec<String>)> {
        let Some(Value::Object(tags)) = self.event.get("tags") else {
            return Vec::new();
        };
        tags.iter()
            .filter_map(|(key, values)| {
                let values = match values {
                    Value::Array(values) => values.iter().map(text_of).collect(),
                    Value::Null => Vec::new(),
                    other => vec![text_of(other)],
                };
                (!values.is_empty()).then_some((key.as_str(), values))
            })
            .collect()
    }

    pub fn attributes(&self) -> Option<&'a Map<String, Value>> {
        self.event.get("attributes")?.as_object()
    }
}

/// Splits `tags` into the values of `key` (removed) and the rest.
pub(crate) fn take_tag(tags: &mut Vec<(&str, Vec<String>)>, key: &str) -> Vec<String> {
    match tags.iter().position(|(k, _)| *k == key) {
        Some(i) => tags.remove(i).1,
        None => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn timestamps() {
        assert_eq!(
            iso8601_ms("2024-01-02T03:04:05.678Z"),
            Some(1_704_164_645_678)
        );
        assert_eq!(
            iso8601_ms("2024-01-02T04:04:05.678+01:00"),
            Some(1_704_164_645_678)
        );
        assert_eq!(
            iso8601_ms("2024-01-02T03:04:05.678"),
            Some(1_704_164_645_678)
        );
        assert_eq!(iso8601_ms("yesterday"), None);
        assert_eq!(number_ms(&json!(1.5e3)), Some(1500));
        assert_eq!(number_ms(&json!("42")), Some(42));
        assert_eq!(number_ms(&json!(1e300)), None);
    }

    #[test]
    fn tags_dedupe_and_view() {
        let mut b = EventBuilder::default();
        b.tag("host", "a".into());
        b.tag("host", "a".into());
        b.tag("host", "b".into());
        let event = b.build();
        assert_eq!(event["tags"], json!({"host": ["a", "b"]}));
        let odd = json!({"tags": {"a": "x", "b": [1, "y"], "c": [], "d": null}, "severity": 30});
        let view = EventView {
            event: odd.as_object().unwrap(),
        };
        assert_eq!(
            view.tags(),
            vec![
                ("a", vec!["x".to_string()]),
                ("b", vec!["1".to_string(), "y".to_string()])
            ]
        );
        assert_eq!(view.severity(), None);
    }
}
