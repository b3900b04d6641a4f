//! The adversarial corpus's files (`tests/adversarial/`), for the tests that run it: the
//! folder, and the JSON fields a case may give inline or as a file of the folder.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

/// `tests/adversarial/`.
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/adversarial")
}

/// A case's JSON field: the value itself, or, given as a string, the JSON file it names in the
/// corpus folder; absent (`null`): an empty object.
pub fn corpus_json(value: &Value) -> Value {
    match value {
        Value::String(path) => {
            let text = std::fs::read_to_string(corpus_dir().join(path)).expect("corpus file");
            serde_json::from_str(&text).expect("corpus file is JSON")
        }
        Value::Null => json!({}),
        other => other.clone(),
    }
}

/// A case's `inputSchema` (`{"type": "object"}` when it has none).
pub fn schema_json(schema: Option<&Value>) -> Value {
    schema.map_or_else(|| json!({"type": "object"}), corpus_json)
}
