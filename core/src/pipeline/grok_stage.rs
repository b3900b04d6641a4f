//! The `grok-parser` vertex: its rules compiled once per run, each event's raw line
//! (`extractAttribute`, default `message`) parsed, and a match's attributes deep-merged into
//! the event's, its tags added and `severity` / `eventTimestamp` set (`docs/pipeline.md`).
//!
//! [`apply`] has four steps: whether the event is parsed at all (the vertex's `predicate`,
//! when it has one: an event it does not match leaves unchanged), which text to parse
//! ([`line_of`]), the parse, and the merge ([`merge`]).

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::RunError;
use super::query::Query;
use crate::GrokRules;
use crate::grok::{GrokError, GrokMatch, GrokParser, merge_attributes};
use jobgraph_model::LogEvent;

/// A compiled `grok-parser`.
#[derive(Debug, Clone)]
pub(crate) struct GrokStage {
    parser: GrokParser,
    /// The attribute path of the raw line; empty: `message`.
    source: Vec<String>,
    /// Only the events it matches are parsed (`predicate`, or `query`).
    only: Option<Query>,
}

fn vertex_error(vertex: &str, message: String) -> RunError {
    RunError::Vertex {
        vertex: vertex.to_owned(),
        message,
    }
}

/// Reads and compiles the vertex's fields: `grokParsingRules` and `grokHelperRules` as arrays
/// of strings (one rule per item) or strings (one rule per line), `extractAttribute` a path.
pub(crate) fn compile(vertex: &str, fields: &Map<String, Value>) -> Result<GrokStage, RunError> {
    let rules = |field: &str| -> Result<Option<GrokRules>, RunError> {
        match fields.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => serde_json::from_value(value.clone()).map(Some).map_err(|e| {
                vertex_error(vertex, format!("`{field}` must be an array of strings (one `RuleName pattern` per item) or a string: {e}"))
            }),
        }
    };
    let Some(parsing) = rules("grokParsingRules")? else {
        return Err(vertex_error(
            vertex,
            "`grokParsingRules` is missing: give the parsing rules, an array of `RuleName pattern` strings".into(),
        ));
    };
    let helpers = rules("grokHelperRules")?.unwrap_or_default();
    let parser = GrokParser::from_rules(&parsing, &helpers)
        .map_err(|e| vertex_error(vertex, e.to_string()))?;
    let source = match fields.get("extractAttribute") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::String(path)) if path.is_empty() || path == "message" => Vec::new(),
        Some(Value::String(path)) => path.split('.').map(str::to_owned).collect(),
        Some(_) => {
            return Err(vertex_error(
                vertex,
                "`extractAttribute` must be a string: the attribute path of the text to parse, such as \"command.line\"".into(),
            ));
        }
    };
    let only = super::query::vertex_predicate(fields)
        .map(|(field, value)| super::query::read_predicate(vertex, field, value))
        .transpose()?;
    Ok(GrokStage {
        parser,
        source,
        only,
    })
}

/// The text an event is parsed from: its `message`, or the `extractAttribute` attribute when
/// that is a string; `None` (the event is left as it is) when there is none.
fn line_of<'e>(stage: &GrokStage, event: &'e LogEvent) -> Option<Cow<'e, str>> {
    if stage.source.is_empty() {
        return event.message.as_deref().map(Cow::Borrowed);
    }
    let raw = event.attribute(&stage.source)?;
    serde_json::from_str::<String>(raw.get())
        .ok()
        .map(Cow::Owned)
}

/// Parses one event in place; no match leaves it unchanged.
pub(crate) fn apply(stage: &GrokStage, vertex: &str, event: &mut LogEvent) -> Result<(), RunError> {
    if stage.only.as_ref().is_some_and(|only| !only.matches(event)) {
        return Ok(());
    }
    let Some(line) = line_of(stage, event) else {
        return Ok(());
    };
    let found = stage.parser.parse(&line).map_err(|e| match e {
        GrokError::TimeLimit { .. } => RunError::Limit(format!("vertex {vertex}: {e}")),
        GrokError::Rule { .. } => vertex_error(vertex, e.to_string()),
    })?;
    if let Some(found) = found {
        merge(event, found);
    }
    Ok(())
}

/// Puts a match into the event: attributes deep-merged, tags' values appended, `severity` and
/// `eventTimestamp` set.
fn merge(event: &mut LogEvent, found: GrokMatch) {
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
}
