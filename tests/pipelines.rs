//! The pipeline conformance cases of `tests/conformance/pipelines/*.json`: a resolved graph,
//! events (and events by table), and what the run must show. The outcome of a case is the
//! same JSON natively, in Node and in Chromium: `{"error"}` or `{"sinks", "vertices", "edges"}`.

use std::path::{Path, PathBuf};

use jobgraph_core::JobGraph;
use jobgraph_core::pipeline::{LogEvent, Pipeline, RunInput, RunOptions};
use serde::Deserialize;
use serde_json::{Map, Value, json};

/// A pipeline case file.
#[derive(Debug, Clone, Deserialize)]
pub struct PipelineFile {
    /// What the file covers.
    #[serde(default)]
    pub description: String,
    /// The cases.
    pub cases: Vec<PipelineCase>,
}

/// One pipeline case.
#[derive(Debug, Clone, Deserialize)]
pub struct PipelineCase {
    /// Unique name.
    pub name: String,
    /// The rule it checks.
    #[serde(default)]
    pub why: String,
    /// The resolved graph.
    pub graph: Value,
    /// Events for the table sources.
    #[serde(default)]
    pub events: Vec<Value>,
    /// Events by table.
    #[serde(default)]
    pub tables: Map<String, Value>,
    /// What the run must show.
    pub expect: Value,
}

/// The folder of the pipeline case files.
pub fn pipelines_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance/pipelines")
}

/// Every pipeline case, with its file name, in name order.
pub fn load_pipeline_cases(dir: &Path) -> Result<Vec<(String, PipelineCase)>, String> {
    let files: Vec<(String, PipelineFile)> = crate::read_json_files(dir)?;
    Ok(files
        .into_iter()
        .flat_map(|(name, file)| file.cases.into_iter().map(move |c| (name.clone(), c)))
        .collect())
}

/// Events as the package reads them, with the same error text (`what`: `event`, or
/// `table T event`).
fn events(values: &[Value], what: &str) -> Result<Vec<LogEvent>, String> {
    values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            LogEvent::from_value(v.clone())
                .map_err(|e| format!("Invalid events: {what} {}: {e}", i + 1))
        })
        .collect()
}

/// Runs a case: its outcome, or `{"error": message}`.
pub fn pipeline_outcome(case: &PipelineCase) -> Value {
    match run(case) {
        Ok(outcome) => outcome,
        Err(error) => json!({"error": error}),
    }
}

fn run(case: &PipelineCase) -> Result<Value, String> {
    let graph =
        JobGraph::from_value(case.graph.clone()).map_err(|e| format!("Invalid job graph: {e}"))?;
    let mut input = RunInput {
        events: events(&case.events, "event")?,
        ..Default::default()
    };
    for (table, list) in &case.tables {
        let list = list.as_array().cloned().unwrap_or_default();
        input.tables.insert(
            table.clone(),
            events(&list, &format!("table {table} event"))?,
        );
    }
    let pipeline = Pipeline::compile(&graph).map_err(|e| e.to_string())?;
    let run = pipeline
        .run(input, &RunOptions::default())
        .map_err(|e| e.to_string())?;
    let sinks: Map<String, Value> = run
        .sinks
        .iter()
        .map(|(name, events)| {
            (
                name.clone(),
                Value::Array(events.iter().map(LogEvent::to_value).collect()),
            )
        })
        .collect();
    let vertices: Map<String, Value> = run
        .vertices
        .iter()
        .map(|v| (v.name.clone(), json!({"in": v.events_in, "out": v.events_out, "dropped": v.events_dropped, "ports": v.events_by_port, "notes": v.notes})))
        .collect();
    let edges: Map<String, Value> = run
        .edges
        .iter()
        .map(|e| (e.edge.clone(), json!(e.events)))
        .collect();
    Ok(json!({"sinks": sinks, "vertices": vertices, "edges": edges}))
}

fn id_of(event: &Value) -> Value {
    event.get("id").cloned().unwrap_or(Value::Null)
}

/// Checks an outcome against the case's `expect`; the error lists what differs.
pub fn check_pipeline(case: &PipelineCase, outcome: &Value) -> Result<(), String> {
    let expect = &case.expect;
    let mut problems = Vec::new();
    if let Some(piece) = expect.get("error").and_then(Value::as_str) {
        match outcome.get("error").and_then(Value::as_str) {
            Some(message) if message.contains(piece) => {}
            Some(message) => problems.push(format!("error {message:?} does not contain {piece:?}")),
            None => problems.push(format!(
                "expected an error containing {piece:?}, the run succeeded"
            )),
        }
        return if problems.is_empty() {
            Ok(())
        } else {
            Err(problems.join("; "))
        };
    }
    if let Some(error) = outcome.get("error") {
        return Err(format!("the run failed: {error}"));
    }
    for (sink, ids) in expect
        .get("sinks")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let got: Vec<Value> = outcome["sinks"]
            .get(sink)
            .and_then(Value::as_array)
            .map(|l| l.iter().map(id_of).collect())
            .unwrap_or_default();
        if Some(&got) != ids.as_array() {
            problems.push(format!(
                "sink {sink}: expected {ids}, got {}",
                Value::Array(got)
            ));
        }
    }
    for (sink, events) in expect
        .get("sinkEvents")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let got = outcome["sinks"].get(sink).cloned().unwrap_or(Value::Null);
        if &got != events {
            problems.push(format!("sink {sink} events: expected {events}, got {got}"));
        }
    }
    for (sink, wanted) in expect
        .get("sinkMatch")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let got = outcome["sinks"]
            .get(sink)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let wanted = wanted.as_array().cloned().unwrap_or_default();
        if got.len() != wanted.len() {
            problems.push(format!(
                "sink {sink}: expected {} events, got {}: {}",
                wanted.len(),
                got.len(),
                Value::Array(got.clone())
            ));
        }
        for (i, (event, fields)) in got.iter().zip(&wanted).enumerate() {
            for (pointer, want) in fields.as_object().into_iter().flatten() {
                let found = event.pointer(pointer);
                if found != Some(want) {
                    problems.push(format!(
                        "sink {sink} event {i} {pointer}: expected {want}, got {}",
                        found.map_or("nothing".to_owned(), Value::to_string)
                    ));
                }
            }
        }
    }
    for (vertex, counts) in expect
        .get("counts")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        for (key, want) in counts.as_object().into_iter().flatten() {
            let got = &outcome["vertices"][vertex][key];
            if got != want {
                problems.push(format!("vertex {vertex} {key}: expected {want}, got {got}"));
            }
        }
    }
    for (vertex, ports) in expect
        .get("ports")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        for (port, want) in ports.as_object().into_iter().flatten() {
            let got = &outcome["vertices"][vertex]["ports"][port];
            if got != want {
                problems.push(format!(
                    "vertex {vertex} port {port}: expected {want} events, got {got}"
                ));
            }
        }
    }
    for (vertex, notes) in expect
        .get("notes")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let got: Vec<&str> = outcome["vertices"][vertex]["notes"]
            .as_array()
            .map(|l| l.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        for note in notes
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            if !got.iter().any(|g| g.contains(note)) {
                problems.push(format!(
                    "vertex {vertex}: no note containing {note:?} in {got:?}"
                ));
            }
        }
    }
    for (edge, want) in expect
        .get("edges")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let got = &outcome["edges"][edge];
        if got != want {
            problems.push(format!("edge {edge}: expected {want} events, got {got}"));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}
