//! The `grok-parser` vertex: its rules compiled once per run, each event's raw line
//! (`extractAttribute`, default `message`) parsed, and a match's attributes deep-merged into
//! the event's, its tags added and `severity` / `eventTimestamp` set (`docs/pipeline.md`).

use serde_json::{Map, Value};

use super::RunError;
use super::event::LogEvent;
use crate::grok::{GrokError, GrokParser, merge_attributes};

/// A compiled `grok-parser`.
#[derive(Debug, Clone)]
pub(crate) struct GrokStage {
    parser: GrokParser,
    /// The attribute path of the raw line; empty: `message`.
    source: Vec<String>,
}

fn vertex_error(vertex: &str, message: String) -> RunError {
    RunError::Vertex {
        vertex: vertex.to_owned(),
        message,
    }
}

/// Reads and compiles the vertex's fields.
pub(crate) fn compile(vertex: &str, fields: &Map<String, Value>) -> Result<GrokStage, RunError> {
    let text = |field: &str| -> Result<Option<&str>, RunError> {
        match fields.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.as_str())),
            Some(_) => Err(vertex_error(vertex, format!("`{field}` must be a string"))),
        }
    };
    let Some(rules) = text("grokParsingRules")? else {
        return Err(vertex_error(
            vertex,
            "`grokParsingRules` is missing: give the parsing rules, one `RuleName pattern` per line".into(),
        ));
    };
    let helpers = text("grokHelperRules")?.unwrap_or_default();
    let parser =
        GrokParser::new(rules, helpers).map_err(|e| vertex_error(vertex, e.to_string()))?;
    let source = match text("extractAttribute")? {
        None | Some("message") | Some("") => Vec::new(),
        Some(path) => path.split('.').map(str::to_owned).collect(),
    };
    Ok(GrokStage { parser, source })
}

/// Parses one event in place; no match leaves it unchanged.
pub(crate) fn apply(stage: &GrokStage, vertex: &str, event: &mut LogEvent) -> Result<(), RunError> {
    let owned;
    let line = if stage.source.is_empty() {
        match &event.message {
            Some(m) => m.as_str(),
            None => return Ok(()),
        }
    } else {
        let Some(raw) = event.attribute(&stage.source) else {
            return Ok(());
        };
        let Ok(text) = serde_json::from_str::<String>(raw.get()) else {
            return Ok(());
        };
        owned = text;
        owned.as_str()
    };
    let found = stage.parser.parse(line).map_err(|e| match e {
        GrokError::TimeLimit { .. } => RunError::Limit(format!("vertex {vertex}: {e}")),
        GrokError::Rule { .. } => vertex_error(vertex, e.to_string()),
    })?;
    let Some(found) = found else {
        return Ok(());
    };
    if !found.attributes.is_empty() {
        let mut attributes: Map<String, Value> = event
            .attributes
            .as_deref()
            .and_then(|raw| serde_json::from_str(raw.get()).ok())
            .unwrap_or_default();
        merge_attributes(&mut attributes, found.attributes);
        event.attributes = serde_json::value::to_raw_value(&Value::Object(attributes)).ok();
    }
    for (key, values) in found.tags {
        let Value::Array(values) = values else {
            continue;
        };
        let slot = event.tags.entry(key).or_default();
        slot.extend(values.into_iter().filter_map(|v| match v {
            Value::String(s) => Some(s),
            _ => None,
        }));
    }
    for (key, value) in found.top_level_fields {
        match key.as_str() {
            "severity" => event.severity = Some(value),
            "eventTimestamp" => event.event_timestamp = Some(value),
            _ => {}
        }
    }
    Ok(())
}
