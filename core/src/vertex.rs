//! Vertices: the lossless [`Vertex`] and typed views of the vertex types the interface document
//! names.
//!
//! Vertices are stored losslessly as [`Vertex`]; the typed structs are read from them on demand.
//! Unknown fields of known types are kept in the vertex and ignored here.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::json::{ShapeError, kind_of};

/// A vertex: an ordered JSON object whose `type` and `name` are strings.
///
/// ```
/// use jobgraph_core::Vertex;
/// let v: Vertex = serde_json::from_str(r#"{"type":"logs-sync-sink","name":"out","x":1}"#).unwrap();
/// assert_eq!(v.name(), "out");
/// assert_eq!(v.vertex_type(), "logs-sync-sink");
/// assert_eq!(serde_json::to_string(&v).unwrap(), r#"{"type":"logs-sync-sink","name":"out","x":1}"#);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Vertex {
    fields: Map<String, Value>,
}

impl Vertex {
    /// Makes a vertex of JSON fields; `type` and `name` must be strings.
    pub fn from_fields(fields: Map<String, Value>) -> Result<Self, ShapeError> {
        for key in ["type", "name"] {
            match fields.get(key) {
                Some(Value::String(_)) => {}
                Some(other) => {
                    return Err(ShapeError::new(
                        "",
                        format!("`{key}` must be a string, found {}", kind_of(other)),
                    ));
                }
                None => return Err(ShapeError::new("", format!("`{key}` is missing"))),
            }
        }
        Ok(Vertex { fields })
    }

    /// The vertex name.
    pub fn name(&self) -> &str {
        self.str_field("name")
    }

    /// The vertex type, for example `logs-filter`.
    pub fn vertex_type(&self) -> &str {
        self.str_field("type")
    }

    fn str_field(&self, key: &str) -> &str {
        self.fields.get(key).and_then(Value::as_str).unwrap_or("")
    }

    /// Renames the vertex; all other fields keep their place.
    pub fn set_name(&mut self, name: String) {
        self.fields.insert("name".into(), Value::String(name));
    }

    /// Every field, in document order.
    pub fn fields(&self) -> &Map<String, Value> {
        &self.fields
    }

    /// Whether this vertex is a `template-operation`.
    pub fn is_template_operation(&self) -> bool {
        self.vertex_type() == TEMPLATE_OPERATION
    }

    /// A typed view of the vertex for the known types; [`VertexKind::Other`] for the rest.
    ///
    /// Fails, naming the field, when a known type has a field of the wrong JSON type.
    pub fn kind(&self) -> Result<VertexKind, ShapeError> {
        VertexKind::from_vertex(self)
    }
}

impl Serialize for Vertex {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.fields.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Vertex {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let fields = Map::deserialize(deserializer)?;
        Vertex::from_fields(fields).map_err(D::Error::custom)
    }
}

/// Type name of the template-operation vertex.
pub const TEMPLATE_OPERATION: &str = "template-operation";

/// A typed view of a vertex.
#[derive(Debug, Clone, PartialEq)]
pub enum VertexKind {
    /// `log-transform`.
    LogTransform(LogTransform),
    /// `logs-filter`.
    LogsFilter(LogsFilter),
    /// `logs-iceberg-table-source`, and `grepr-raw-log-source` (the same fields).
    LogsIcebergTableSource(LogsIcebergTableSource),
    /// `logs-sync-sink`.
    LogsSyncSink(LogsSyncSink),
    /// `grok-parser`.
    GrokParser(GrokParserVertex),
    /// `logs-iceberg-table-sink`.
    LogsIcebergTableSink(LogsIcebergTableSink),
    /// `template-operation`.
    TemplateOperation(TemplateOperation),
    /// Any other type, passed through untouched.
    Other,
}

/// `log-transform`: a list of transforms.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogTransform {
    /// The transforms, applied in `order`.
    pub transforms: Vec<Transform>,
}

/// One transform inside a `log-transform`; only `tag-action` is typed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Transform {
    /// A `tag-action` transform.
    TagAction(TagAction),
    /// Any other transform object.
    Other(Map<String, Value>),
}

/// Modification done by a `tag-action`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum TagModification {
    /// Adds values to the tag.
    Add,
    /// Replaces the tag's values.
    Set,
    /// Removes the tag.
    Remove,
}

/// `tag-action` transform.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TagAction {
    /// Always `tag-action`.
    #[serde(rename = "type")]
    pub transform_type: String,
    /// Position among the transforms.
    pub order: i64,
    /// What to do with the tag.
    pub modification: TagModification,
    /// The tag's key.
    pub tag_key: String,
    /// The tag's values.
    #[serde(default)]
    pub values: Vec<String>,
}

/// `logs-filter`: the events its predicate matches pass (all others with `inverted`).
///
/// The predicate is `predicate` (the public service's name) or `query` (the interface
/// document's); `predicate` wins when both are given. Either is a query string or a predicate
/// object (`docs/pipeline.md`, "Predicates"); compile it with
/// [`Query::from_predicate`](crate::pipeline::Query::from_predicate).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogsFilter {
    /// Which logs pass.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicate: Option<Value>,
    /// Which logs pass (the interface document's name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<Value>,
}

/// `logs-iceberg-table-source`: a table, or a dataset of the data lake (the public client's
/// queries send `datasetId`, `start`, `end`, `query`, `limit` and no `table`). At least one of
/// `table`, `datasetId` and `datasetName` is present (validation says so).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LogsIcebergTableSource {
    /// Table to read (`logs` when a dataset is named without one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<String>,
    /// Dataset to read, by identifier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset_id: Option<String>,
    /// Dataset to read, by name (when `datasetId` is absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset_name: Option<String>,
    /// Start of the time range, ISO 8601, inclusive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// End of the time range, ISO 8601, exclusive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<String>,
    /// Events read at most.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// Order of the events read (`UNSORTED` by default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort_order: Option<String>,
    /// Processing mode, `STREAM` in the examples.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub processing: Option<String>,
    /// Optional row filter (a predicate, as [`LogsFilter`]'s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<Value>,
    /// Optional row filter (the public service's name; wins over `query`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicate: Option<Value>,
}

/// `logs-iceberg-table-sink`: writes the events reaching it into a dataset's table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LogsIcebergTableSink {
    /// Dataset written, by identifier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset_id: Option<String>,
    /// Dataset written, by name (when `datasetId` is absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset_name: Option<String>,
    /// Table written; `logs` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<String>,
}

/// `logs-sync-sink`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogsSyncSink {
    /// Integration that receives the logs; may be left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub integration: Option<String>,
}

/// `grok-parser`: parses each event's raw line with grok rules (`docs/pipeline.md`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GrokParserVertex {
    /// The parsing rules: an array of `RuleName pattern` strings, or one string with a rule
    /// per line (`docs/grok.md`).
    pub grok_parsing_rules: crate::GrokRules,
    /// Helper rules, same forms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grok_helper_rules: Option<crate::GrokRules>,
    /// The attribute holding the raw line; the event's `message` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extract_attribute: Option<String>,
}

/// `template-operation`: a vertex replaced by a template's subgraph at resolution time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TemplateOperation {
    /// Template to use.
    pub template_id: String,
    /// Exact version; the latest when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template_version: Option<u64>,
    /// Values for the template's parameters.
    #[serde(default)]
    pub template_inputs: Map<String, Value>,
    /// Draft mode for this operation (and every operation nested in it).
    #[serde(default)]
    pub draft_mode: bool,
}

/// Required and optional fields of the known types with their JSON types, for validation.
pub(crate) struct FieldRule {
    pub name: &'static str,
    pub required: bool,
    pub check: fn(&Value) -> bool,
    pub expected: &'static str,
}

const fn rule(
    name: &'static str,
    required: bool,
    check: fn(&Value) -> bool,
    expected: &'static str,
) -> FieldRule {
    FieldRule {
        name,
        required,
        check,
        expected,
    }
}

fn is_positive_integer(v: &Value) -> bool {
    v.as_u64().is_some_and(|n| n >= 1)
}

/// The field rules of a known type; `None` for other types.
pub(crate) fn field_rules(vertex_type: &str) -> Option<&'static [FieldRule]> {
    static LOG_TRANSFORM: [FieldRule; 1] = [rule("transforms", true, Value::is_array, "an array")];
    static LOGS_FILTER: [FieldRule; 1] = [rule("inverted", false, Value::is_boolean, "a boolean")];
    const STRING: &str = "a string";
    static ICEBERG: [FieldRule; 8] = [
        rule("table", false, Value::is_string, STRING),
        rule("datasetId", false, Value::is_string, STRING),
        rule("datasetName", false, Value::is_string, STRING),
        rule(
            "start",
            false,
            Value::is_string,
            "an ISO 8601 time (a string)",
        ),
        rule(
            "end",
            false,
            Value::is_string,
            "an ISO 8601 time (a string)",
        ),
        rule(
            "limit",
            false,
            is_positive_integer,
            "an integer of at least 1",
        ),
        rule("sortOrder", false, Value::is_string, STRING),
        rule("processing", false, Value::is_string, STRING),
    ];
    static SINK: [FieldRule; 1] = [rule("integration", false, Value::is_string, STRING)];
    static ICEBERG_SINK: [FieldRule; 3] = [
        rule("datasetId", false, Value::is_string, STRING),
        rule("datasetName", false, Value::is_string, STRING),
        rule("table", false, Value::is_string, STRING),
    ];
    const RULES: &str = "an array of strings (one `RuleName pattern` per item) or a string";
    static GROK: [FieldRule; 3] = [
        rule("grokParsingRules", true, crate::GrokRules::is_shape, RULES),
        rule("grokHelperRules", false, crate::GrokRules::is_shape, RULES),
        rule("extractAttribute", false, Value::is_string, STRING),
    ];
    static TEMPLATE_OP: [FieldRule; 4] = [
        rule("templateId", true, Value::is_string, "a string"),
        rule(
            "templateVersion",
            false,
            is_positive_integer,
            "an integer of at least 1",
        ),
        rule("templateInputs", false, Value::is_object, "an object"),
        rule("draftMode", false, Value::is_boolean, "a boolean"),
    ];
    match vertex_type {
        "log-transform" => Some(&LOG_TRANSFORM),
        "logs-filter" => Some(&LOGS_FILTER),
        "logs-iceberg-table-source" | "grepr-raw-log-source" => Some(&ICEBERG),
        "logs-sync-sink" => Some(&SINK),
        "grok-parser" => Some(&GROK),
        "logs-iceberg-table-sink" => Some(&ICEBERG_SINK),
        TEMPLATE_OPERATION => Some(&TEMPLATE_OP),
        _ => None,
    }
}

/// Whether vertices of `vertex_type` take a predicate (`predicate`, or `query`) and whether
/// it is required; `None` for types without one.
pub(crate) fn predicate_requirement(vertex_type: &str) -> Option<bool> {
    match vertex_type {
        "logs-filter" | "logs-branch" => Some(true),
        "logs-iceberg-table-source"
        | "grepr-raw-log-source"
        | "logs-values-source"
        | "grok-parser" => Some(false),
        _ => None,
    }
}

/// Rules for a `tag-action` transform inside `log-transform`.
pub(crate) fn tag_action_rules() -> &'static [FieldRule] {
    fn is_modification(v: &Value) -> bool {
        matches!(v.as_str(), Some("ADD" | "SET" | "REMOVE"))
    }
    fn is_string_array(v: &Value) -> bool {
        v.as_array().is_some_and(|a| a.iter().all(Value::is_string))
    }
    static TAG_ACTION: [FieldRule; 4] = [
        rule("order", true, |v| v.is_i64() || v.is_u64(), "an integer"),
        rule(
            "modification",
            true,
            is_modification,
            "one of \"ADD\", \"SET\", \"REMOVE\"",
        ),
        rule("tagKey", true, Value::is_string, "a string"),
        rule("values", false, is_string_array, "an array of strings"),
    ];
    &TAG_ACTION
}

impl VertexKind {
    /// Reads the typed view of `vertex`.
    pub fn from_vertex(vertex: &Vertex) -> Result<Self, ShapeError> {
        Ok(match vertex.vertex_type() {
            "log-transform" => VertexKind::LogTransform(read(vertex)?),
            "logs-filter" => VertexKind::LogsFilter(read(vertex)?),
            "logs-iceberg-table-source" | "grepr-raw-log-source" => {
                VertexKind::LogsIcebergTableSource(read(vertex)?)
            }
            "logs-sync-sink" => VertexKind::LogsSyncSink(read(vertex)?),
            "grok-parser" => VertexKind::GrokParser(read(vertex)?),
            "logs-iceberg-table-sink" => VertexKind::LogsIcebergTableSink(read(vertex)?),
            TEMPLATE_OPERATION => VertexKind::TemplateOperation(read(vertex)?),
            _ => VertexKind::Other,
        })
    }
}

/// Reads the typed view `T` of `vertex`, naming the vertex and the wrong field.
fn read<T: for<'de> Deserialize<'de>>(vertex: &Vertex) -> Result<T, ShapeError> {
    T::deserialize(Value::Object(vertex.fields().clone())).map_err(|e| {
        ShapeError::new(
            "",
            format!(
                "vertex {:?} of type {:?}: {e}",
                vertex.name(),
                vertex.vertex_type()
            ),
        )
    })
}

impl TemplateOperation {
    /// Reads a template operation from a vertex's fields, naming the wrong field. Only its own
    /// type is read (not through [`VertexKind::from_vertex`]), so that a build resolving
    /// templates, the wasm module's, does not carry the readers of every other known type.
    pub fn from_vertex(vertex: &Vertex) -> Result<Self, ShapeError> {
        if vertex.is_template_operation() {
            return read(vertex);
        }
        Err(ShapeError::new(
            "",
            format!(
                "vertex {:?} is a {:?}, not a template-operation",
                vertex.name(),
                vertex.vertex_type()
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn vertex(value: Value) -> Vertex {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn reads_known_types() {
        let v = vertex(json!({"type": "log-transform", "name": "t", "transforms": [
            {"type": "tag-action", "order": 1, "modification": "ADD", "tagKey": "env", "values": ["prod"]},
            {"type": "other-transform", "x": 1}
        ]}));
        let VertexKind::LogTransform(t) = v.kind().unwrap() else {
            panic!("not a log-transform")
        };
        assert!(
            matches!(&t.transforms[0], Transform::TagAction(a) if a.modification == TagModification::Add)
        );
        assert!(matches!(&t.transforms[1], Transform::Other(_)));

        let v = vertex(
            json!({"type": "template-operation", "name": "op", "templateId": "t", "templateVersion": 2}),
        );
        let op = TemplateOperation::from_vertex(&v).unwrap();
        assert_eq!(op.template_version, Some(2));
        assert!(!op.draft_mode);
        let v =
            vertex(json!({"type": "grok-parser", "name": "g", "grokParsingRules": "R %{word:w}"}));
        assert!(
            matches!(v.kind(), Ok(VertexKind::GrokParser(g)) if g.grok_parsing_rules == "R %{word:w}".into() && g.extract_attribute.is_none())
        );
        // The public service's shape: one rule per item.
        let v = vertex(
            json!({"type": "grok-parser", "name": "g", "grokParsingRules": ["R %{word:w}"], "grokHelperRules": []}),
        );
        assert!(
            matches!(v.kind(), Ok(VertexKind::GrokParser(g)) if g.grok_parsing_rules == crate::GrokRules::List(vec!["R %{word:w}".into()]))
        );
        assert!(matches!(
            vertex(json!({"type": "x-y", "name": "n"})).kind(),
            Ok(VertexKind::Other)
        ));
    }

    #[test]
    fn wrong_field_type_is_named() {
        let v = vertex(json!({"type": "grepr-raw-log-source", "name": "f", "limit": "ten"}));
        let err = v.kind().unwrap_err().to_string();
        assert!(
            err.contains("\"f\"") && err.contains("grepr-raw-log-source"),
            "{err}"
        );
    }
}
