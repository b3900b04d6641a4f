//! Vertices: the lossless [`Vertex`] and typed views of the vertex types the interface document
//! names.
//!
//! Vertices are stored losslessly as [`Vertex`]; the typed structs are read from them on demand.
//! Unknown fields of known types are kept in the vertex and ignored here.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::json::kind_of;
use crate::problem::Problem;

/// A vertex: an ordered JSON object whose `type` and `name` are strings.
///
/// ```
/// use jobgraph_model::Vertex;
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
    pub fn from_fields(fields: Map<String, Value>) -> Result<Self, Problem> {
        for key in ["type", "name"] {
            match fields.get(key) {
                Some(Value::String(_)) => {}
                Some(other) => {
                    return Err(Problem::new(
                        "",
                        format!("`{key}` must be a string, found {}", kind_of(other)),
                    ));
                }
                None => return Err(Problem::new("", format!("`{key}` is missing"))),
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
    pub fn kind(&self) -> Result<VertexKind, Problem> {
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
        Vertex::from_fields(fields).map_err(Problem::into_de_error)
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
    LogsIcebergTableSource(Box<LogsIcebergTableSource>),
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

pub use crate::ops::sinks::logs_iceberg_table_sink::LogsIcebergTableSink;
pub use crate::ops::sinks::logs_sync_sink::LogsSyncSink;
pub use crate::ops::sources::logs_iceberg_table_source::LogsIcebergTableSource;
pub use crate::ops::transforms::grok_parser::GrokParserVertex;
pub use crate::ops::transforms::log_transform::{
    LogTransform, TagAction, TagModification, Transform,
};
pub use crate::ops::transforms::logs_filter::LogsFilter;
pub use crate::ops::transforms::template_operation::TemplateOperation;

impl VertexKind {
    /// Reads the typed view of `vertex`.
    pub fn from_vertex(vertex: &Vertex) -> Result<Self, Problem> {
        Ok(match vertex.vertex_type() {
            "log-transform" => VertexKind::LogTransform(read(vertex)?),
            "logs-filter" => VertexKind::LogsFilter(read(vertex)?),
            "logs-iceberg-table-source" | "grepr-raw-log-source" => {
                VertexKind::LogsIcebergTableSource(Box::new(read(vertex)?))
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
fn read<T: for<'de> Deserialize<'de>>(vertex: &Vertex) -> Result<T, Problem> {
    T::deserialize(Value::Object(vertex.fields().clone())).map_err(|e| {
        Problem::new(
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
    pub fn from_vertex(vertex: &Vertex) -> Result<Self, Problem> {
        if vertex.is_template_operation() {
            if !vertex
                .fields()
                .get("templateId")
                .is_some_and(Value::is_string)
            {
                return Err(Problem::new(
                    "",
                    format!(
                        "vertex {:?} of type \"template-operation\": `templateId` is missing or not a string: name the template to use",
                        vertex.name()
                    ),
                ));
            }
            return read(vertex);
        }
        Err(Problem::new(
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
