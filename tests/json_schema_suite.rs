//! The official JSON Schema Test Suite (draft 2020-12) run through the same `InputSchema` that
//! validates template inputs: our input validation is standard 2020-12.
//!
//! - every required test (`draft2020-12/*.json`);
//! - the optional tests of ECMA-262 regular expressions in `pattern` and `patternProperties`
//!   (`draft2020-12/optional/ecmascript-regex.json`, `non-bmp-regex.json`).
//!
//! Groups whose schema refers to the suite's remote documents (`http://localhost:1234/…`, served
//! by the suite's own test server, which is not part of the copy here, and template inputs never
//! fetch remote schemas) are skipped and counted. The npm package runs the same files
//! (`tests/js/json-schema-suite.mjs`).

use std::path::{Path, PathBuf};

use jobgraph_core::InputSchema;
use serde_json::Value;

#[derive(Default)]
struct Outcome {
    run: usize,
    skipped: usize,
    failures: Vec<String>,
}

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("json-schema-test-suite/draft2020-12")
}

fn run_files(files: &[PathBuf]) -> Outcome {
    let mut outcome = Outcome::default();
    for file in files {
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
                outcome.skipped += group["tests"].as_array().map_or(0, Vec::len);
                continue;
            }
            let schema = match InputSchema::compile(Some(&group["schema"])) {
                Ok(s) => s,
                Err(e) => {
                    outcome
                        .failures
                        .push(format!("{file_name} / {description}: schema rejected: {e}"));
                    continue;
                }
            };
            for test in group["tests"].as_array().into_iter().flatten() {
                outcome.run += 1;
                let expected = test["valid"].as_bool().unwrap_or_default();
                if schema.is_valid(&test["data"]) != expected {
                    outcome.failures.push(format!(
                        "{file_name} / {description} / {}: expected valid={expected}",
                        test["description"].as_str().unwrap_or_default()
                    ));
                }
            }
        }
    }
    outcome
}

#[test]
fn json_schema_test_suite_draft2020_12() {
    let mut files: Vec<_> = std::fs::read_dir(suite_dir())
        .expect("suite folder exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 40, "suite incomplete: {} files", files.len());
    let Outcome {
        run,
        skipped,
        failures,
    } = run_files(&files);
    println!(
        "{run} JSON Schema Test Suite tests run, {} failed, {skipped} skipped (remote documents)",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(run > 1000, "only {run} suite tests ran");
}

#[test]
fn json_schema_test_suite_draft2020_12_optional_regex() {
    let dir = suite_dir().join("optional");
    let files = [
        dir.join("ecmascript-regex.json"),
        dir.join("non-bmp-regex.json"),
    ];
    let Outcome { run, failures, .. } = run_files(&files);
    println!(
        "{run} optional regex tests run, {} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(run, 86, "the two files hold 86 tests");
}
