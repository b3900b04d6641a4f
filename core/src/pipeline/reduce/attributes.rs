//! What an event's attributes and tags give the reducer: the selected attributes' shape and
//! leaf values (when attributes build patterns, `includedAttributePrefixes` and
//! `excludedAttributePrefixes`), and the partition an event belongs to.

use serde_json::{Map, Value};

use super::config::Settings;
use super::mask::MaskError;
use jobgraph_model::LogEvent;

/// Whether `path` is selected by the include and exclude prefixes.
fn selected(path: &[String], s: &Settings) -> bool {
    let under = |prefix: &Vec<String>| path.starts_with(prefix);
    (s.included.is_empty() || s.included.iter().any(under)) && !s.excluded.iter().any(under)
}

/// The selected attributes' shape (keys, sorted, with nesting) into `shape`, and their leaf
/// values' text into `leaves`.
pub(super) fn leaves_of(
    object: &Map<String, Value>,
    path: &mut Vec<String>,
    s: &Settings,
    shape: &mut String,
    leaves: &mut Vec<String>,
) {
    let mut keys: Vec<&String> = object.keys().collect();
    keys.sort();
    for key in keys {
        path.push(key.clone());
        let value = &object[key];
        let inside = s
            .included
            .iter()
            .any(|p| p.starts_with(path) && p.len() > path.len());
        if selected(path, s) || inside {
            match value {
                Value::Object(inner) if !inner.is_empty() => {
                    shape.push_str(&serde_json::to_string(key).unwrap_or_default());
                    shape.push('{');
                    leaves_of(inner, path, s, shape, leaves);
                    shape.push('}');
                }
                Value::Array(items) if selected(path, s) => {
                    shape.push_str(&serde_json::to_string(key).unwrap_or_default());
                    shape.push_str("[]");
                    for item in items {
                        leaves.push(scalar_text(item));
                    }
                }
                other if selected(path, s) => {
                    shape.push_str(&serde_json::to_string(key).unwrap_or_default());
                    if other.is_null() {
                        shape.push_str(":null");
                    }
                    shape.push(',');
                    leaves.push(scalar_text(other));
                }
                _ => {}
            }
        }
        path.pop();
    }
}

fn scalar_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The first mask that matches all of `value`, if any.
pub(super) fn whole_mask(s: &Settings, value: &str) -> Result<Option<u16>, MaskError> {
    let mut spans = Vec::new();
    s.masks.find(value, &mut spans)?;
    Ok(match spans.as_slice() {
        [one] if one.start == 0 && one.end == value.len() => Some(one.mask),
        _ => None,
    })
}

/// The partition an event belongs to: the values of `partitionByTags` and of the partition
/// attribute paths, and (when attributes build patterns) the attributes' shape.
pub(super) fn partition_key(event: &LogEvent, s: &Settings, shape: &str) -> String {
    let mut key = String::new();
    for tag_key in &s.partition_tags {
        if !key.is_empty() {
            key.push(' ');
        }
        key.push_str(tag_key);
        key.push('=');
        if let Some(values) = event.tags.get(tag_key) {
            key.push_str(&values.join(","));
        }
    }
    for path in &s.partition_paths {
        if !key.is_empty() {
            key.push(' ');
        }
        key.push('@');
        key.push_str(&path.join("."));
        key.push('=');
        if let Some(raw) = event.attribute(path) {
            key.push_str(raw.get());
        }
    }
    if !shape.is_empty() {
        if !key.is_empty() {
            key.push(' ');
        }
        key.push_str("shape=");
        key.push_str(shape);
    }
    key
}
