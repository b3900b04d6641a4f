//! Queries and runs of job graphs on events (`jobgraph_core::pipeline`) for JavaScript: the
//! same results as natively, documents crossing as JSON text.

use jobgraph_core::JobGraph;
use jobgraph_core::pipeline::{
    LogEvent, Pipeline, Query, QueryError, RunError, RunInput, RunOptions,
};
use serde::Deserialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

use crate::convert::{RawError, from_js, json_out, parse_json, to_js};

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
        _ => ("INVALID_JOB_GRAPH", "Invalid job graph"),
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
}

/// Runs a resolved graph (JSON text) on `{events, tables}` (JSON text): the run's record.
#[wasm_bindgen(js_name = runPipelineJson)]
pub fn run_pipeline_json(
    graph: String,
    input: String,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let options: Options = from_js(options, "options")?;
    let defaults = RunOptions::default();
    let options = RunOptions {
        keep: options.keep.unwrap_or(defaults.keep),
        max_events: options.max_events.unwrap_or(defaults.max_events),
        max_handled: options.max_handled.unwrap_or(defaults.max_handled),
        timeout_ms: options.timeout_ms.unwrap_or(defaults.timeout_ms),
    };
    let graph = JobGraph::from_value(parse_json(&graph, "graph")?).map_err(|e| {
        RawError::new(
            "INVALID_JOB_GRAPH",
            "Invalid job graph",
            format!("Invalid job graph: {e}"),
        )
        .into_js()
    })?;
    let input: Value = parse_json(&input, "input")?;
    let mut run_input = RunInput::default();
    if let Value::Object(mut map) = input {
        if let Some(events) = map.remove("events") {
            run_input.events = events_of(events, "event")?;
        }
        if let Some(Value::Object(tables)) = map.remove("tables") {
            for (table, events) in tables {
                let what = format!("table {table} event");
                run_input.tables.insert(table, events_of(events, &what)?);
            }
        }
    }
    let pipeline = Pipeline::compile(&graph).map_err(|e| run_error(&e))?;
    let run = pipeline
        .run(run_input, &options)
        .map_err(|e| run_error(&e))?;
    to_js(&run)
}
