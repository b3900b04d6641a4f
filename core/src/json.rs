//! Helpers for JSON values shared by the model, validation and error messages.

use serde_json::Value;

/// A structural problem of a JSON document: where (a JSON pointer; empty for the document
/// itself) and what. Displayed as `pointer: message`, or just `message` at the root.
///
/// ```
/// use jobgraph_core::JobGraph;
/// let err = JobGraph::from_value(serde_json::json!({"vertices": [{"type": "a"}]})).unwrap_err();
/// assert_eq!((err.pointer.as_str(), err.message.as_str()), ("/vertices/0", "`name` is missing"));
/// assert_eq!(err.to_string(), "/vertices/0: `name` is missing");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", pointer_prefix(pointer))]
pub struct ShapeError {
    /// JSON pointer of the offending value (empty: the document itself).
    pub pointer: String,
    /// What is wrong.
    pub message: String,
}

impl ShapeError {
    /// A problem at `pointer`.
    pub fn new(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        ShapeError {
            pointer: pointer.into(),
            message: message.into(),
        }
    }

    /// The same problem seen from a document that holds this one at `prefix`.
    pub fn within(mut self, prefix: &str) -> Self {
        self.pointer = format!("{prefix}{}", self.pointer);
        self
    }
}

fn pointer_prefix(pointer: &str) -> String {
    if pointer.is_empty() {
        String::new()
    } else {
        format!("{pointer}: ")
    }
}

/// Names a JSON value's type the way error messages do: `a string`, `an array`, ….
pub(crate) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
