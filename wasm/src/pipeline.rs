//! Queries and runs of job graphs on events (`jobgraph_core::pipeline`) for JavaScript: the
//! same results as natively, documents crossing as JSON text. Events that many runs share are
//! read once into an [`EventSet`] kept in the module (a live preview re-runs on every keystroke:
//! reading 1 000 events costs more than running the stages on them). With the crate's feature
//! `incremental` (the grok module's), a set also keeps, for runs with the option `incremental`,
//! the events of the stages that did not change (`incremental/`).
//!
//! The grok module (`grok-wasm/`) compiles this file too, with the grok engine: the package
//! runs a graph with a `grok-parser` there.

#[cfg(feature = "incremental")]
use std::cell::RefCell;

use jobgraph_core::JobGraph;
use jobgraph_core::error::{code, prefix};
use jobgraph_core::pipeline::{
    LogEvent, Pipeline, Query, QueryError, RunError, RunInput, RunOptions, read_events,
};
use serde::Deserialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

use crate::convert::{RawError, from_js, json_out, parse_json, to_js};
#[cfg(feature = "incremental")]
use crate::incremental::{RunCache, salt};

fn query_error(error: &QueryError) -> JsValue {
    #[derive(serde::Serialize)]
    struct Raw<'a> {
        code: &'a str,
        prefix: &'a str,
        message: String,
        column: usize,
        caret: String,
    }
    to_js(&Raw {
        code: "INVALID_QUERY",
        prefix: "Invalid query",
        message: error.to_string(),
        column: error.column,
        caret: error.caret(),
    })
    .unwrap_or_else(|e| e)
}

fn run_error(error: &RunError) -> JsValue {
    if let RunError::Query { error: query, .. } = error {
        let raw = query_error(query);
        // The vertex is part of the message natively: the same here.
        let _ = js_sys::Reflect::set(&raw, &"message".into(), &error.to_string().into());
        return raw;
    }
    let (code, prefix) = match error {
        RunError::Limit(_) => ("RUN_LIMIT_EXCEEDED", "Run limit exceeded"),
        _ => (code::INVALID_JOB_GRAPH, prefix::INVALID_JOB_GRAPH),
    };
    RawError::new(code, prefix, error.to_string()).into_js()
}

/// Parses a query: its tree, or an `INVALID_QUERY` error with `column` and `caret`.
#[wasm_bindgen(js_name = checkQuery)]
pub fn check_query(text: String) -> Result<JsValue, JsValue> {
    let query = Query::parse(&text).map_err(|e| query_error(&e))?;
    json_out(&query.tree())
}

fn events_of(value: Value, what: &str) -> Result<Vec<LogEvent>, JsValue> {
    let Value::Array(items) = value else {
        return Err(RawError::new(
            "INVALID_EVENTS",
            "Invalid events",
            format!("Invalid events: {what} must be an array of events"),
        )
        .into_js());
    };
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| {
            LogEvent::from_value(item).map_err(|e| {
                RawError::new(
                    "INVALID_EVENTS",
                    "Invalid events",
                    format!("Invalid events: {what} {}: {e}", i + 1),
                )
                .into_js()
            })
        })
        .collect()
}

/// Whether each event (a JSON array, as text) matches the query.
#[wasm_bindgen(js_name = matchQueryJson)]
pub fn match_query_json(query: String, events: String) -> Result<JsValue, JsValue> {
    let query = Query::parse(&query).map_err(|e| query_error(&e))?;
    let events = events_of(parse_json(&events, "events")?, "event")?;
    to_js(
        &events
            .iter()
            .map(|e| query.matches(e))
            .collect::<Vec<bool>>(),
    )
}

/// Options of `runPipelineJson`.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct Options {
    keep: Option<usize>,
    max_events: Option<usize>,
    max_handled: Option<usize>,
    timeout_ms: Option<u64>,
    /// The vertices whose events the record keeps (`output`, `dropped`); the others' lists
    /// are left empty (counts stay exact). Absent: every vertex.
    keep_vertices: Option<Vec<String>>,
    /// `false`: the sinks' events are left out of the record (`sinks` lists them empty; their
    /// counts stay in `vertices`), for a preview that shows counts. Absent: kept.
    keep_sinks: Option<bool>,
    /// Runs on an event set only: reuse the events of the vertices that did not change since
    /// the set's previous incremental run (`incremental/`); the record is the same. Without
    /// the feature `incremental`, the whole graph runs.
    #[cfg_attr(not(feature = "incremental"), allow(dead_code))]
    incremental: bool,
}

impl Options {
    fn run_options(&self) -> RunOptions {
        let defaults = RunOptions::default();
        RunOptions {
            keep: self.keep.unwrap_or(defaults.keep),
            max_events: self.max_events.unwrap_or(defaults.max_events),
            max_handled: self.max_handled.unwrap_or(defaults.max_handled),
            timeout_ms: self.timeout_ms.unwrap_or(defaults.timeout_ms),
        }
    }
}

fn graph_of(text: &str) -> Result<JobGraph, JsValue> {
    JobGraph::from_value(parse_json(text, "graph")?).map_err(|e| {
        RawError::new(
            code::INVALID_JOB_GRAPH,
            prefix::INVALID_JOB_GRAPH,
            format!("{}: {e}", prefix::INVALID_JOB_GRAPH),
        )
        .into_js()
    })
}

/// Reads `{events?, tables?}` (JSON text) into `input`; `events` only when `with_events`.
fn read_input(text: &str, input: &mut RunInput, with_events: bool) -> Result<(), JsValue> {
    if let Value::Object(mut map) = parse_json::<Value>(text, "input")? {
        if with_events && let Some(events) = map.remove("events") {
            input.events = events_of(events, "event")?;
        }
        if let Some(Value::Object(tables)) = map.remove("tables") {
            for (table, events) in tables {
                let what = format!("table {table} event");
                input.tables.insert(table, events_of(events, &what)?);
            }
        }
    }
    Ok(())
}

fn run(graph: &str, input: RunInput, options: JsValue) -> Result<JsValue, JsValue> {
    let options = from_js::<Options>(options, "options")?;
    let graph = graph_of(graph)?;
    run_graph(&graph, input, &options)
}

fn run_graph(graph: &JobGraph, input: RunInput, options: &Options) -> Result<JsValue, JsValue> {
    let pipeline = Pipeline::compile(graph).map_err(|e| run_error(&e))?;
    let run = pipeline
        .run(input, &options.run_options())
        .map_err(|e| run_error(&e))?;
    record(run, options)
}

/// The run's record for JavaScript.
fn record(mut run: jobgraph_core::pipeline::Run, options: &Options) -> Result<JsValue, JsValue> {
    if options.keep_sinks == Some(false) {
        for events in run.sinks.values_mut() {
            events.clear();
        }
    }
    // Kept events that nobody will look at are not sent (a live preview shows one vertex's).
    if let Some(names) = &options.keep_vertices {
        for vertex in &mut run.vertices {
            if !names.contains(&vertex.name) {
                vertex.output.clear();
                vertex.dropped.clear();
            }
        }
    }
    to_js(&run)
}

/// Runs a resolved graph (JSON text) on `{events, tables}` (JSON text): the run's record.
#[wasm_bindgen(js_name = runPipelineJson)]
pub fn run_pipeline_json(
    graph: String,
    input: String,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let mut run_input = RunInput::default();
    read_input(&input, &mut run_input, true)?;
    run(&graph, run_input, options)
}

/// Events read once and kept in this module instance (the npm package's `loadEvents`), so
/// that many runs (`runPipelineOn`) share them without reading them again.
#[wasm_bindgen]
pub struct EventSet {
    events: Vec<LogEvent>,
    /// What incremental runs on this set keep between them.
    #[cfg(feature = "incremental")]
    cache: RefCell<RunCache>,
}

#[wasm_bindgen]
impl EventSet {
    /// Reads events from NDJSON (one per line, blank lines skipped) or a JSON array, as the
    /// CLI reads them: the first problem is an `INVALID_EVENTS` error naming its line (NDJSON)
    /// or its position in the array (`event 3`).
    #[wasm_bindgen(constructor)]
    pub fn new(text: String) -> Result<EventSet, JsValue> {
        let events = read_events(&text).map_err(|e| {
            RawError::new("INVALID_EVENTS", "Invalid events", e.to_string()).into_js()
        })?;
        Ok(EventSet {
            events,
            #[cfg(feature = "incremental")]
            cache: RefCell::default(),
        })
    }

    /// How many events the set holds.
    #[wasm_bindgen(getter)]
    pub fn length(&self) -> usize {
        self.events.len()
    }
}

/// As `runPipelineJson`, with the input events of `events` (kept, not consumed) and the
/// `{tables?}` of `input` (JSON text; an `events` field there is ignored). With the option
/// `incremental` (and the feature of that name), the vertices that did not change since the
/// set's previous incremental run are not run again (`incremental/`).
#[wasm_bindgen(js_name = runPipelineOn)]
pub fn run_pipeline_on(
    graph: String,
    events: &EventSet,
    input: String,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let options = from_js::<Options>(options, "options")?;
    let graph = graph_of(&graph)?;
    let mut run_input = RunInput::default();
    read_input(&input, &mut run_input, false)?;
    #[cfg(feature = "incremental")]
    if options.incremental {
        let run_options = options.run_options();
        let key = salt(&run_options, &input);
        let reused = events.cache.borrow_mut().run(
            &graph,
            &events.events,
            &run_input.tables,
            &run_options,
            key,
        );
        if let Some(run) = reused {
            return record(run, &options);
        }
    }
    run_input.events = events.events.clone();
    run_graph(&graph, run_input, &options)
}
