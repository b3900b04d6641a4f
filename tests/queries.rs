//! The query conformance cases of `tests/conformance/queries/*.json`: each file holds events
//! and cases `{query, matches | error: {column, contains}}`. The outcome of a case is
//! `{"matches": [ids]}` or `{"error": message, "column": n}`, the same JSON natively, in Node
//! and in Chromium.

use std::path::{Path, PathBuf};

use jobgraph_core::pipeline::{LogEvent, Query};
use serde::Deserialize;
use serde_json::{Value, json};

/// A query case file.
#[derive(Debug, Clone, Deserialize)]
pub struct QueryFile {
    /// What the file covers.
    #[serde(default)]
    pub description: String,
    /// The events every case runs on.
    pub events: Vec<Value>,
    /// The cases.
    pub cases: Vec<QueryCase>,
}

/// One query case.
#[derive(Debug, Clone, Deserialize)]
pub struct QueryCase {
    /// The query text.
    pub query: String,
    /// Expected matching event ids, in event order.
    #[serde(default)]
    pub matches: Option<Vec<String>>,
    /// Expected error: its column and a piece of its message.
    #[serde(default)]
    pub error: Option<ExpectedError>,
    /// The rule the case checks.
    #[serde(default)]
    pub why: String,
}

/// An expected query error.
#[derive(Debug, Clone, Deserialize)]
pub struct ExpectedError {
    /// 1-based column (characters).
    pub column: usize,
    /// A piece of the message.
    pub contains: String,
}

/// The folder of the query case files.
pub fn queries_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance/queries")
}

/// Every query file, by file name, in name order.
pub fn load_query_files(dir: &Path) -> Result<Vec<(String, QueryFile)>, String> {
    crate::read_json_files(dir)
}

/// The outcome of `query` on `events`.
pub fn query_outcome(query: &str, events: &[Value]) -> Result<Value, String> {
    let parsed = match Query::parse(query) {
        Ok(q) => q,
        Err(e) => return Ok(json!({"error": e.to_string(), "column": e.column})),
    };
    let mut matches = Vec::new();
    for (i, value) in events.iter().enumerate() {
        let event =
            LogEvent::from_value(value.clone()).map_err(|e| format!("event {}: {e}", i + 1))?;
        if parsed.matches(&event) {
            matches.push(Value::String(event.label(i)));
        }
    }
    Ok(json!({"matches": matches}))
}

/// Checks an outcome against the case; the error says what differs.
pub fn check_query(case: &QueryCase, outcome: &Value) -> Result<(), String> {
    match (&case.matches, &case.error) {
        (Some(expected), _) => {
            let expected = json!({"matches": expected});
            if *outcome == expected {
                Ok(())
            } else {
                Err(format!("expected {expected}, got {outcome}"))
            }
        }
        (None, Some(error)) => {
            let message = outcome.get("error").and_then(Value::as_str).unwrap_or("");
            let column = outcome.get("column").and_then(Value::as_u64);
            if column == Some(error.column as u64) && message.contains(&error.contains) {
                Ok(())
            } else {
                Err(format!(
                    "expected an error at column {} containing {:?}, got {outcome}",
                    error.column, error.contains
                ))
            }
        }
        (None, None) => Err("the case has neither `matches` nor `error`".into()),
    }
}
