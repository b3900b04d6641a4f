//! The template model: a versioned, parameterized script that yields a job graph.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A template version, with the fields of the interface document.
///
/// `id` and `version` are assigned by the service; a template under test may lack both.
///
/// ```
/// use jobgraph_model::Template;
/// let t: Template = serde_json::from_str(r#"{
///   "id": "filter", "version": 2, "name": "Filter",
///   "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}},
///   "template": "({vertices: [], edges: []})",
///   "inputs": {"input": "f:input"}, "outputs": {"output": "f:output"}
/// }"#).unwrap();
/// assert_eq!(t.label(), "filter@2");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct Template {
    /// Identifier assigned by the service; empty for a template under test.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub id: String,
    /// Version, starting at 1; 0 for a template under test.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub version: u64,
    /// Human-readable name.
    #[serde(default)]
    pub name: String,
    /// Human-readable description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Owning organization.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub organization_id: Option<String>,
    /// Creation time, ISO 8601 UTC.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// Update time, ISO 8601 UTC.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
    /// JSON Schema (2020-12) of the parameters; absent means any object.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_schema: Option<Value>,
    /// JavaScript source whose final expression is the job graph.
    #[serde(default)]
    pub template: String,
    /// External input name → internal target `vertex[:port]`.
    #[serde(default)]
    pub inputs: IndexMap<String, String>,
    /// External output name → internal source `vertex[:port]`.
    #[serde(default)]
    pub outputs: IndexMap<String, String>,
    /// Outputs that exist only in draft mode.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub draft_outputs: Vec<DraftOutput>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// An output that exists only in draft mode.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DraftOutput {
    /// Output name.
    pub name: String,
    /// Human-readable description.
    #[serde(default)]
    pub description: String,
    /// Internal vertex that supplies the output.
    pub vertex: String,
}

impl Template {
    /// `id@version` for messages; the name (or `(unnamed)`) for a template without an id.
    pub fn label(&self) -> String {
        match (self.id.is_empty(), self.version) {
            (false, 0) => self.id.clone(),
            (false, v) => format!("{}@{v}", self.id),
            (true, _) if !self.name.is_empty() => format!("{:?} (under test)", self.name),
            (true, _) => "(unnamed template under test)".to_owned(),
        }
    }

    /// The names of the `inputSchema`'s top-level properties, in schema order.
    pub fn parameter_names(&self) -> Vec<String> {
        self.input_schema
            .as_ref()
            .and_then(|s| s.get("properties"))
            .and_then(Value::as_object)
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// Reads a template from JSON text. When the JSON has no `template` field, `script` (for
    /// example the text of a `.js` file kept next to it) supplies the source.
    ///
    /// Fails naming what is wrong: invalid JSON (with line and column), a field of the wrong
    /// type, a missing script, or a script given twice.
    pub fn from_json_with_script(
        json: &str,
        script: Option<String>,
    ) -> Result<Self, TemplateError> {
        let value: Value = crate::json::parse_json(json).map_err(|e| TemplateError::Json {
            line: e.line,
            column: e.column,
            message: e.message,
        })?;
        let has_inline = value.get("template").is_some();
        let mut template: Template =
            serde_json::from_value(value).map_err(|e| TemplateError::Field {
                message: e.to_string(),
            })?;
        match (has_inline, script) {
            (true, Some(_)) => return Err(TemplateError::ScriptTwice),
            (false, Some(script)) => template.template = script,
            (false, None) => return Err(TemplateError::NoScript),
            (true, None) => {}
        }
        Ok(template)
    }

    /// SHA-256 of the script and the input schema, as lowercase hex: the script's bytes, a zero
    /// byte, then the compact JSON of `inputSchema` (`null` when absent). Two versions with the
    /// same hash run the same code on the same inputs; the service stores it as `sourceHash`
    /// and the resolver's execution cache keys on it.
    ///
    /// ```
    /// use jobgraph_model::Template;
    /// let t = Template { template: "({vertices: []})".into(), ..Default::default() };
    /// assert_eq!(t.source_hash().len(), 64);
    /// let mut u = t.clone();
    /// u.name = "another name".into();
    /// assert_eq!(t.source_hash(), u.source_hash());
    /// u.template.push(' ');
    /// assert_ne!(t.source_hash(), u.source_hash());
    /// ```
    pub fn source_hash(&self) -> String {
        use sha2::Digest;
        let mut hasher = sha2::Sha256::new();
        hasher.update(self.template.as_bytes());
        hasher.update([0u8]);
        let schema = self
            .input_schema
            .as_ref()
            .map_or_else(|| "null".to_owned(), Value::to_string);
        hasher.update(schema.as_bytes());
        hasher
            .finalize()
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect()
    }
}

/// Why a template file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    /// The text is not JSON.
    #[error("invalid JSON at line {line}, column {column}: {message}")]
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// A field has the wrong type (the message names it).
    #[error("{message}")]
    Field {
        /// What is wrong, naming the field.
        message: String,
    },
    /// The script is both in the `template` field and in a side file.
    #[error("the script is given twice: in the `template` field and in a .js file; keep one")]
    ScriptTwice,
    /// Neither a `template` field nor a side file.
    #[error("no script: add a `template` field or a .js file of the same name")]
    NoScript,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_from_side_file() {
        let t = Template::from_json_with_script(
            r#"{"id":"a","version":1,"name":"A"}"#,
            Some("1".into()),
        )
        .unwrap();
        assert_eq!(t.template, "1");
        let err = Template::from_json_with_script(
            r#"{"id":"a","name":"A","template":"x"}"#,
            Some("y".into()),
        )
        .unwrap_err();
        assert_eq!(err, TemplateError::ScriptTwice);
        let err = Template::from_json_with_script(r#"{"id":"a","name":"A"}"#, None).unwrap_err();
        assert_eq!(err, TemplateError::NoScript);
        let err = Template::from_json_with_script("{\n\"id\": 3}", None).unwrap_err();
        assert!(err.to_string().contains("invalid type"), "{err}");
        let err = Template::from_json_with_script("{\n\"id\" 3}", None).unwrap_err();
        assert!(matches!(err, TemplateError::Json { line: 2, .. }), "{err}");
    }

    #[test]
    fn labels() {
        let mut t = Template {
            id: "x".into(),
            version: 3,
            ..Default::default()
        };
        assert_eq!(t.label(), "x@3");
        t.id.clear();
        t.name = "Nice".into();
        assert_eq!(t.label(), "\"Nice\" (under test)");
    }
}
