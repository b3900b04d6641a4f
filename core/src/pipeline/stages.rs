//! What each vertex type does to events (`docs/pipeline.md`, "Vertices"): compiled once from
//! the vertex's fields into a [`Stage`].

use serde_json::{Map, Value};

use super::RunError;
use super::query::Query;
use super::{json_stage, keyvalue, remap, sampler};
use jobgraph_model::LogEvent;
use jobgraph_model::ops::{Operation, sinks, sources, transforms};

/// A compiled vertex.
#[derive(Debug, Clone)]
pub(crate) enum Stage {
    /// `logs-iceberg-table-source` and `grepr-raw-log-source`: the run's events (or its
    /// table's), filtered.
    TableSource {
        table: Option<String>,
        query: Option<Query>,
    },
    /// `logs-values-source`: its inline events, filtered.
    ValuesSource {
        events: Vec<LogEvent>,
        query: Option<Query>,
    },
    /// The agent sources (`datadog-log-agent-source`, …): the run's events, as a table source
    /// without a table or a predicate; in the service they read an intake it does not have.
    AgentSource,
    /// `logs-filter`.
    Filter { query: Query, inverted: bool },
    /// `logs-branch`: matches leave by `output`, the others by `else`.
    Branch { query: Query },
    /// `logs-event-sampler`: a token bucket on event time.
    Sampler(Box<sampler::Sampler>),
    /// `json-log-processor`.
    Json(Box<json_stage::JsonStage>),
    /// `keyvalue-processor`.
    KeyValue(Box<keyvalue::KeyValueStage>),
    /// `log-attributes-remapper`.
    Remap(Box<remap::Remapper>),
    /// `log-transform`: tag actions in order; `skipped` other transforms (not simulated).
    Transform {
        actions: Vec<TagAction>,
        skipped: Vec<String>,
    },
    /// `grok-parser`: parses each event's raw line (without feature `grok`, not simulated).
    #[cfg(feature = "grok")]
    Grok(Box<super::grok_stage::GrokStage>),
    /// `log-reducer` and `pattern-matcher`: patterns, samples and summaries.
    Reduce(Box<super::reduce::Reducer>),
    /// `logs-sync-sink`, `logs-iceberg-table-sink` and the vendor sinks: collect.
    Sink,
    /// Anything else: passes events through, not simulated.
    Pass,
}

impl Stage {
    /// Whether the engine knows what this vertex does.
    pub(crate) fn simulated(&self) -> bool {
        !matches!(self, Stage::Pass)
    }

    /// Whether the vertex only emits.
    pub(crate) fn is_source(&self) -> bool {
        matches!(
            self,
            Stage::TableSource { .. } | Stage::ValuesSource { .. } | Stage::AgentSource
        )
    }

    /// Its output ports besides `output`, each carrying its own events (`logs-branch`:
    /// `else`).
    pub(crate) fn ports(&self) -> &'static [&'static str] {
        match self {
            Stage::Branch { .. } => &["else"],
            _ => &[],
        }
    }
}

/// What a `tag-action` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Modification {
    Add,
    Set,
    Remove,
    Delete,
}

/// One `tag-action`.
#[derive(Debug, Clone)]
pub(crate) struct TagAction {
    pub modification: Modification,
    pub key: String,
    pub values: Vec<String>,
}

fn field_error(vertex: &str, field: &str, problem: impl std::fmt::Display) -> RunError {
    RunError::Vertex {
        vertex: vertex.to_owned(),
        message: format!("`{field}` {problem}"),
    }
}

fn optional_query(vertex: &str, fields: &Map<String, Value>) -> Result<Option<Query>, RunError> {
    super::query::vertex_predicate(fields)
        .map(|(field, value)| super::query::read_predicate(vertex, field, value))
        .transpose()
}

fn read_actions(vertex: &str, fields: &Map<String, Value>) -> Result<Stage, RunError> {
    let Some(Value::Array(transforms)) = fields.get("transforms") else {
        return Err(field_error(
            vertex,
            "transforms",
            "must be an array of transforms",
        ));
    };
    let mut ordered: Vec<(i64, usize, &Map<String, Value>)> = Vec::new();
    let mut skipped = Vec::new();
    for (i, transform) in transforms.iter().enumerate() {
        let Value::Object(t) = transform else {
            return Err(field_error(
                vertex,
                &format!("transforms[{i}]"),
                "must be an object",
            ));
        };
        let kind = t
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("tag-action");
        if kind != "tag-action" {
            skipped.push(kind.to_owned());
            continue;
        }
        let order = t.get("order").and_then(Value::as_i64).unwrap_or(i64::MAX);
        ordered.push((order, i, t));
    }
    ordered.sort_by_key(|(order, i, _)| (*order, *i));
    let mut actions = Vec::with_capacity(ordered.len());
    for (_, i, t) in ordered {
        let at = format!("transforms[{i}]");
        let modification = match t.get("modification").and_then(Value::as_str) {
            Some("ADD") => Modification::Add,
            Some("SET") => Modification::Set,
            Some("REMOVE") => Modification::Remove,
            Some("DELETE") => Modification::Delete,
            other => {
                return Err(field_error(
                    vertex,
                    &format!("{at}.modification"),
                    format!(
                        "must be ADD, SET, REMOVE or DELETE, found {}",
                        other.map_or("nothing".into(), |o| format!("`{o}`"))
                    ),
                ));
            }
        };
        let Some(key) = t.get("tagKey").and_then(Value::as_str) else {
            return Err(field_error(
                vertex,
                &format!("{at}.tagKey"),
                "must be a string",
            ));
        };
        let values = match t.get("values") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| v.as_str().map(str::to_owned))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| {
                    field_error(
                        vertex,
                        &format!("{at}.values"),
                        "must be an array of strings",
                    )
                })?,
            Some(_) => {
                return Err(field_error(
                    vertex,
                    &format!("{at}.values"),
                    "must be an array of strings",
                ));
            }
        };
        actions.push(TagAction {
            modification,
            key: key.to_owned(),
            values,
        });
    }
    Ok(Stage::Transform { actions, skipped })
}

/// How the engine compiles one operation of the catalog.
type Compile = fn(&str, &Map<String, Value>) -> Result<Stage, RunError>;

/// The operations the engine simulates, each by its catalog entry (`jobgraph_model::ops`): a
/// vertex's type is looked up in the catalog, and its stage found here. A type the catalog
/// does not know, or one it knows and the engine does not run, passes events through and is
/// named as not simulated.
static STAGES: &[(&Operation, Compile)] = &[
    (&sources::logs_iceberg_table_source::OPERATION, table_source),
    (&sources::grepr_raw_log_source::OPERATION, table_source),
    (&sources::logs_values_source::OPERATION, values_source),
    (&sources::datadog_log_agent_source::OPERATION, agent_source),
    (&sources::splunk_log_agent_source::OPERATION, agent_source),
    (&sources::newrelic_log_agent_source::OPERATION, agent_source),
    (
        &sources::sumologic_log_agent_source::OPERATION,
        agent_source,
    ),
    (&sources::otlp_log_agent_source::OPERATION, agent_source),
    (&sources::otel_log_source::OPERATION, agent_source),
    (&transforms::logs_filter::OPERATION, filter),
    (&transforms::logs_branch::OPERATION, branch),
    (
        &transforms::logs_event_sampler::OPERATION,
        |name, fields| Ok(Stage::Sampler(Box::new(sampler::compile(name, fields)?))),
    ),
    (&transforms::log_transform::OPERATION, read_actions),
    #[cfg(feature = "grok")]
    (&transforms::grok_parser::OPERATION, grok),
    (&transforms::log_reducer::OPERATION, |name, fields| {
        reducer(name, fields, super::reduce::Mode::Reduce)
    }),
    (&transforms::pattern_matcher::OPERATION, |name, fields| {
        reducer(name, fields, super::reduce::Mode::Match)
    }),
    (
        &transforms::json_log_processor::OPERATION,
        |name, fields| Ok(Stage::Json(Box::new(json_stage::compile(name, fields)?))),
    ),
    (
        &transforms::keyvalue_processor::OPERATION,
        |name, fields| Ok(Stage::KeyValue(Box::new(keyvalue::compile(name, fields)?))),
    ),
    (
        &transforms::log_attributes_remapper::OPERATION,
        |name, fields| Ok(Stage::Remap(Box::new(remap::compile(name, fields)?))),
    ),
    (&sinks::logs_sync_sink::OPERATION, sink),
    (&sinks::logs_iceberg_table_sink::OPERATION, sink),
    (&sinks::datadog_log_sink::OPERATION, sink),
    (&sinks::splunk_log_sink::OPERATION, sink),
    (&sinks::newrelic_log_sink::OPERATION, sink),
    (&sinks::sumologic_log_sink::OPERATION, sink),
];

/// A sink collects what reaches it, as it is: what a vendor sink adds on the way out
/// (`additionalTags`, `processor:grepr`) is the delivery's, not the pipeline's.
fn sink(_: &str, _: &Map<String, Value>) -> Result<Stage, RunError> {
    Ok(Stage::Sink)
}

/// An agent source emits the run's events (`job:run`'s, the preview's, the package's), as a
/// `logs-iceberg-table-source` without a table does.
fn agent_source(_: &str, _: &Map<String, Value>) -> Result<Stage, RunError> {
    Ok(Stage::AgentSource)
}

/// Compiles a vertex of `vertex_type` with `fields`.
pub(crate) fn compile(
    name: &str,
    vertex_type: &str,
    fields: &Map<String, Value>,
) -> Result<Stage, RunError> {
    let Some(op) = jobgraph_model::ops::find(vertex_type) else {
        return Ok(Stage::Pass);
    };
    match STAGES.iter().find(|(known, _)| std::ptr::eq(*known, op)) {
        Some((_, compile)) => compile(name, fields),
        None => Ok(Stage::Pass),
    }
}

fn table_source(name: &str, fields: &Map<String, Value>) -> Result<Stage, RunError> {
    Ok(Stage::TableSource {
        table: fields
            .get("table")
            .and_then(Value::as_str)
            .map(str::to_owned),
        query: optional_query(name, fields)?,
    })
}

fn values_source(name: &str, fields: &Map<String, Value>) -> Result<Stage, RunError> {
    let items = match fields.get("values").or_else(|| fields.get("logs")) {
        Some(Value::Array(items)) => items,
        _ => {
            return Err(field_error(
                name,
                "values",
                "must be an array of events (also accepted: `logs`)",
            ));
        }
    };
    let events = items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            LogEvent::from_value(item.clone()).map_err(|e| {
                field_error(
                    name,
                    &format!("values[{i}]"),
                    format!("is not an event: {e}"),
                )
            })
        })
        .collect::<Result<_, _>>()?;
    Ok(Stage::ValuesSource {
        events,
        query: optional_query(name, fields)?,
    })
}

fn required_query(name: &str, fields: &Map<String, Value>, what: &str) -> Result<Query, RunError> {
    optional_query(name, fields)?.ok_or_else(|| {
        field_error(
            name,
            "query",
            format!("(or `predicate`) is missing: give the events {what}, e.g. {{\"type\": \"datadog-query\", \"query\": \"level:error\"}}"),
        )
    })
}

fn filter(name: &str, fields: &Map<String, Value>) -> Result<Stage, RunError> {
    Ok(Stage::Filter {
        query: required_query(name, fields, "that pass")?,
        inverted: fields
            .get("inverted")
            .and_then(Value::as_bool)
            .unwrap_or(false),
    })
}

fn reducer(
    name: &str,
    fields: &Map<String, Value>,
    mode: super::reduce::Mode,
) -> Result<Stage, RunError> {
    Ok(Stage::Reduce(Box::new(super::reduce::Reducer::compile(
        name, fields, mode,
    )?)))
}

fn branch(name: &str, fields: &Map<String, Value>) -> Result<Stage, RunError> {
    Ok(Stage::Branch {
        query: required_query(
            name,
            fields,
            "that leave by `output` (the others leave by `else`)",
        )?,
    })
}

#[cfg(feature = "grok")]
fn grok(name: &str, fields: &Map<String, Value>) -> Result<Stage, RunError> {
    Ok(Stage::Grok(Box::new(super::grok_stage::compile(
        name, fields,
    )?)))
}

/// Applies tag actions to one event.
pub(crate) fn apply(actions: &[TagAction], event: &mut LogEvent) {
    for action in actions {
        match action.modification {
            Modification::Add => match event.tags.get_mut(&action.key) {
                Some(values) => {
                    for value in &action.values {
                        if !values.contains(value) {
                            values.push(value.clone());
                        }
                    }
                }
                // `ADD` with no values creates nothing.
                None if action.values.is_empty() => {}
                None => {
                    event
                        .tags
                        .insert(action.key.clone(), unique(&action.values));
                }
            },
            Modification::Set => {
                if action.values.is_empty() {
                    event.tags.shift_remove(&action.key);
                } else {
                    let values = unique(&action.values);
                    match event.tags.get_mut(&action.key) {
                        Some(existing) => *existing = values,
                        None => {
                            event.tags.insert(action.key.clone(), values);
                        }
                    }
                }
            }
            Modification::Remove if !action.values.is_empty() => {
                if let Some(values) = event.tags.get_mut(&action.key) {
                    values.retain(|v| !action.values.contains(v));
                    if values.is_empty() {
                        event.tags.shift_remove(&action.key);
                    }
                }
            }
            Modification::Remove | Modification::Delete => {
                event.tags.shift_remove(&action.key);
            }
        }
    }
}

/// `values` without repeats, in first-seen order.
fn unique(values: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(values.len());
    for value in values {
        if !out.contains(value) {
            out.push(value.clone());
        }
    }
    out
}
