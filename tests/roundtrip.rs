//! Parsing then serializing a graph loses no field and keeps key order: every example job and
//! every graph in the conformance cases survives a round trip byte for byte after
//! pretty-printing.

use std::path::Path;

use jobgraph_conformance::{cases_dir, load_cases};
use jobgraph_core::JobGraph;
use serde_json::Value;

fn round_trips(graph: &Value) -> Result<(), String> {
    // Graphs without `edges` gain `"edges": []`, by design; compare those with it added.
    let mut expected = graph.clone();
    if let Value::Object(map) = &mut expected
        && !map.contains_key("edges")
    {
        map.insert("edges".into(), Value::Array(Vec::new()));
    }
    let parsed: JobGraph = serde_json::from_value(graph.clone()).map_err(|e| e.to_string())?;
    let again = serde_json::to_string_pretty(&parsed).map_err(|e| e.to_string())?;
    let want = serde_json::to_string_pretty(&expected).map_err(|e| e.to_string())?;
    if again == want {
        Ok(())
    } else {
        Err(format!("differs:\n{want}\n---\n{again}"))
    }
}

#[test]
fn example_jobs_round_trip() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/jobs");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("examples/jobs") {
        let path = entry.expect("entry").path();
        let job: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("JSON");
        round_trips(&job["jobGraph"]).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        count += 1;
    }
    assert!(count >= 2);
}

#[test]
fn conformance_graphs_round_trip() {
    let mut count = 0;
    for (file, case) in load_cases(&cases_dir()).expect("cases") {
        let graph = match case.operation.as_str() {
            "resolve" => case.input["job"]
                .get("jobGraph")
                .unwrap_or(&case.input["job"])
                .clone(),
            _ => continue,
        };
        // Only well-formed graphs can be parsed into the model.
        if serde_json::from_value::<JobGraph>(graph.clone()).is_err() {
            continue;
        }
        round_trips(&graph).unwrap_or_else(|e| panic!("{file} / {}: {e}", case.name));
        if let Some(Value::Object(expected)) = case.expect.get("output") {
            let resolved = expected
                .get("jobGraph")
                .cloned()
                .unwrap_or(Value::Object(expected.clone()));
            round_trips(&resolved)
                .unwrap_or_else(|e| panic!("{file} / {} (output): {e}", case.name));
        }
        count += 1;
    }
    assert!(count >= 40, "only {count} graphs checked");
}
