//! Prints the native outcome of every conformance case as one JSON object keyed by case name,
//! for the Node and browser parity runs (`tests/js/`) to compare against.

use jobgraph_conformance::{cases_dir, load_cases, run_case};
use serde_json::{Map, Value};

fn main() -> std::process::ExitCode {
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
