//! Reading what the user gives: JSON files and `--values`.

use std::path::Path;

use serde_json::{Map, Value};

use crate::failure::Failure;

/// Reads a JSON file: exit 2 when it is missing or unreadable, or not JSON (with the line and
/// column of the first error).
pub fn read_json(path: &Path) -> Result<Value, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        Failure::usage(format!("cannot read {}: {}", path.display(), io_reason(&e)))
    })?;
    jobgraph_core::parse_json(&text)
        .map_err(|e| Failure::usage(format!("{} is not valid JSON: {e}", path.display())))
}

/// An I/O error without the `(os error N)` noise for the common cases.
pub fn io_reason(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => error.to_string(),
    }
}

/// `--values`: JSON text or @FILE, an object.
pub fn parse_values(values: &str) -> Result<Map<String, Value>, Failure> {
    let values = match values.strip_prefix('@') {
        Some(file) => read_json(Path::new(file))?,
        None => jobgraph_core::parse_json(values)
            .map_err(|e| Failure::usage(format!("--values is not valid JSON: {e}")))?,
    };
    match values {
        Value::Object(values) => Ok(values),
        _ => Err(Failure::usage("--values must be a JSON object")),
    }
}
