//! Turning a rule's match into a [`GrokMatch`]: each recorded group's text converted,
//! transformed and put in place (attribute paths nest, `tags.x` appends, `severity` and
//! `eventTimestamp` go to the top-level fields).

use serde_json::{Map, Value};

use super::GrokMatch;
use super::compile::{CompiledRule, Target};
use super::engine::Subject;
use super::transform;

/// What `rule` extracted from `line`, which it matched as `m`.
pub(super) fn extract(rule: &CompiledRule, m: &regress::Match, line: &Subject<'_>) -> GrokMatch {
    let mut out = GrokMatch {
        matching_rule_name: rule.name.clone(),
        ..GrokMatch::default()
    };
    for capture in &rule.captures {
        let Some(range) = m.group(capture.group) else {
            continue;
        };
        let Some(text) = line.slice(range) else {
            continue;
        };
        let Some(mut value) = transform::convert(&capture.conversion, text) else {
            continue;
        };
        if let Some(t) = &capture.transformer {
            match transform::apply(t, value) {
                Some(v) => value = v,
                None => continue,
            }
        }
        match &capture.target {
            Target::Attribute(path) if path.is_empty() => {
                if let Value::Object(map) = value {
                    merge(&mut out.attributes, map);
                }
            }
            Target::Attribute(path) => insert(&mut out.attributes, path, value),
            Target::Tag(key) => {
                let text = match value {
                    Value::String(s) => s,
                    other => other.to_string(),
                };
                match out
                    .tags
                    .entry(key.clone())
                    .or_insert_with(|| Value::Array(Vec::new()))
                {
                    Value::Array(values) => values.push(Value::String(text)),
                    slot => *slot = Value::Array(vec![Value::String(text)]),
                }
            }
            Target::TopLevel(key) => {
                out.top_level_fields.insert(key.clone(), value);
            }
        }
    }
    out
}

/// Sets `path` in `map`, making objects on the way (a non-object in the way is replaced).
fn insert(map: &mut Map<String, Value>, path: &[String], value: Value) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut here = map;
    for key in parents {
        let slot = here
            .entry(key.clone())
            .or_insert_with(|| Value::Object(Map::new()));
        if !slot.is_object() {
            *slot = Value::Object(Map::new());
        }
        let Value::Object(next) = slot else {
            return;
        };
        here = next;
    }
    here.insert(last.clone(), value);
}

/// Deep-merges `from` into `into`: objects merge, anything else replaces, new keys append.
pub(crate) fn merge(into: &mut Map<String, Value>, from: Map<String, Value>) {
    for (key, value) in from {
        match (into.get_mut(&key), value) {
            (Some(Value::Object(old)), Value::Object(new)) => merge(old, new),
            (_, value) => {
                into.insert(key, value);
            }
        }
    }
}
