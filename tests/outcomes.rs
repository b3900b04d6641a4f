//! Prints the native outcome of every conformance case as one JSON object keyed by case name,
//! for the Node and browser parity runs (`tests/js/`) to compare against.

use jobgraph_conformance::pipelines::{load_pipeline_cases, pipeline_outcome, pipelines_dir};
use jobgraph_conformance::queries::{load_query_files, queries_dir, query_outcome};
use jobgraph_conformance::{cases_dir, load_cases, run_case};
use serde_json::{Map, Value};

fn main() -> std::process::ExitCode {
    if std::env::args().nth(1).as_deref() == Some("pipelines") {
        return pipelines();
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
