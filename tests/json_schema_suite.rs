//! The official JSON Schema Test Suite (draft 2020-12, required tests) run through the same
//! `InputSchema` that validates template inputs: our input validation is standard 2020-12.
//!
//! Groups whose schema refers to the suite's remote documents (`http://localhost:1234/…`, served
//! by the suite's own test server, which is not part of the copy here, and template inputs never
//! fetch remote schemas) are skipped and counted.

use std::path::Path;

use jobgraph_core::InputSchema;
use serde_json::Value;

#[test]
fn json_schema_test_suite_draft2020_12() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("json-schema-test-suite/draft2020-12");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("suite folder exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 40, "suite incomplete: {} files", files.len());
    let (mut run, mut skipped, mut failures) = (0, 0, Vec::new());
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable");
        let groups: Vec<Value> = serde_json::from_str(&text).expect("suite JSON");
        let file_name = file
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        for group in &groups {
            let description = group["description"].as_str().unwrap_or_default();
            if group["schema"].to_string().contains("localhost:1234") {
                skipped += group["tests"].as_array().map_or(0, Vec::len);
                continue;
            }
            let schema = match InputSchema::compile(Some(&group["schema"])) {
                Ok(s) => s,
                Err(e) => {
                    failures.push(format!("{file_name} / {description}: schema rejected: {e}"));
                    continue;
                }
            };
            for test in group["tests"].as_array().into_iter().flatten() {
                run += 1;
                let expected = test["valid"].as_bool().unwrap_or_default();
                if schema.is_valid(&test["data"]) != expected {
                    failures.push(format!(
                        "{file_name} / {description} / {}: expected valid={expected}",
                        test["description"].as_str().unwrap_or_default()
                    ));
                }
            }
        }
    }
    println!(
        "{run} JSON Schema Test Suite tests run, {} failed, {skipped} skipped (remote documents)",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(run > 1000, "only {run} suite tests ran");
}
