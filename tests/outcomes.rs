//! Prints the native outcome of every conformance case as one JSON object keyed by case name
//! (`pipelines`: the query and pipeline cases; `grok`: the grok cases keyed `file#index`),
//! for the Node and browser parity runs (`tests/js/`) to compare against.

use jobgraph_conformance::grok::{GrokCase, grok_dir, load_grok_cases};
use jobgraph_conformance::pipelines::{load_pipeline_cases, pipeline_outcome, pipelines_dir};
use jobgraph_conformance::queries::{load_query_files, queries_dir, query_outcome};
use jobgraph_conformance::{cases_dir, load_cases, run_case};
use jobgraph_core::grok::parse_batch;
use serde_json::{Map, Value};

fn main() -> std::process::ExitCode {
    match std::env::args().nth(1).as_deref() {
        Some("pipelines") => return pipelines(),
        Some("grok") => return grok(),
        _ => {}
    }
    let cases = match load_cases(&cases_dir()) {
        Ok(cases) => cases,
        Err(e) => {
            eprintln!("cannot load the conformance cases: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let mut outcomes = Map::new();
    for (_, case) in &cases {
        let outcome =
            run_case(case).unwrap_or_else(|e| Value::String(format!("runner error: {e}")));
        outcomes.insert(case.name.clone(), outcome);
    }
    match serde_json::to_string_pretty(&Value::Object(outcomes)) {
        Ok(text) => {
            println!("{text}");
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::ExitCode::from(1)
        }
    }
}

/// `conformance-outcomes pipelines`: the query cases' outcomes keyed `file#index`, and the
/// pipeline cases' keyed by name.
fn pipelines() -> std::process::ExitCode {
    let (Ok(files), Ok(cases)) = (
        load_query_files(&queries_dir()),
        load_pipeline_cases(&pipelines_dir()),
    ) else {
        eprintln!("cannot load the query or pipeline cases");
        return std::process::ExitCode::from(2);
    };
    let mut queries = Map::new();
    for (file, parsed) in &files {
        for (i, case) in parsed.cases.iter().enumerate() {
            let outcome = query_outcome(&case.query, &parsed.events)
                .unwrap_or_else(|e| Value::String(format!("runner error: {e}")));
            queries.insert(format!("{file}#{i}"), outcome);
        }
    }
    let pipelines: Map<String, Value> = cases
        .iter()
        .map(|(_, case)| (case.name.clone(), pipeline_outcome(case)))
        .collect();
    println!(
        "{}",
        serde_json::json!({"queries": queries, "pipelines": pipelines})
    );
    std::process::ExitCode::SUCCESS
}

/// The answer to a case's one-sample batch as the engine writes it (a JSON string, compared byte
/// for byte with the npm package's `parseGrok(…, {text: true})`), or `{"error": message}`.
fn grok_answer_text(case: &GrokCase) -> Value {
    match parse_batch(&case.request()) {
        Ok(answer) => serde_json::to_string(&answer).map_or(Value::Null, Value::String),
        Err(e) => serde_json::json!({ "error": e.to_string() }),
    }
}

/// `conformance-outcomes grok`: every grok case's answer keyed `file#index`.
fn grok() -> std::process::ExitCode {
    let Ok(cases) = load_grok_cases(&grok_dir()) else {
        eprintln!("cannot load the grok cases");
        return std::process::ExitCode::from(2);
    };
    let outcomes: Map<String, Value> = cases
        .iter()
        .map(|(key, case)| (key.clone(), grok_answer_text(case)))
        .collect();
    println!("{}", Value::Object(outcomes));
    std::process::ExitCode::SUCCESS
}
