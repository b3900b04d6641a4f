//! The job-graph model: `{vertices, edges}`, lossless and order-preserving.
//!
//! A [`Vertex`](crate::Vertex) keeps every field it was given, in the order given, so a graph parsed and
//! written again is the same document. Typed views of the known vertex types are available
//! through [`Vertex::kind`](crate::Vertex::kind); any other type passes through untouched.

use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::edge::{Edge, EdgeError, parse_edge};
use crate::json::kind_of;
use crate::problem::Problem;
use crate::vertex::Vertex;

/// A job graph: vertices joined by edges, plus any other top-level fields, kept in order.
///
/// Edges are kept as written; [`JobGraph::parsed_edges`] parses them.
///
/// ```
/// use jobgraph_model::JobGraph;
/// let text = r#"{"vertices":[{"type":"a","name":"x"},{"type":"b","name":"y"}],"edges":["x->y"]}"#;
/// let graph: JobGraph = serde_json::from_str(text).unwrap();
/// assert_eq!(graph.vertices.len(), 2);
/// assert_eq!(graph.parsed_edges().unwrap()[0].to_string(), "x -> y");
/// assert_eq!(serde_json::to_string(&graph).unwrap(), text);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct JobGraph {
    /// The vertices, in order.
    pub vertices: Vec<Vertex>,
    /// The edges as written, in order.
    pub edges: Vec<String>,
    /// Other top-level fields with their position; `vertices` and `edges` hold `null` here
    /// only to remember where they stood.
    layout: Map<String, Value>,
}

impl JobGraph {
    /// A graph of these vertices and edges.
    pub fn new(vertices: Vec<Vertex>, edges: Vec<String>) -> Self {
        JobGraph {
            vertices,
            edges,
            layout: Map::new(),
        }
    }

    /// Reads a graph from a JSON value, naming the JSON pointer of the first structural
    /// problem. Use `jobgraph_core::validate_job_graph` for a full report.
    pub fn from_value(value: Value) -> Result<Self, Problem> {
        let Value::Object(mut object) = value else {
            return Err(Problem::new(
                "",
                format!("expected an object, found {}", kind_of(&value)),
            ));
        };
        let vertices = match object.get_mut("vertices").map(Value::take) {
            Some(Value::Array(items)) => items
                .into_iter()
                .enumerate()
                .map(|(i, item)| match item {
                    Value::Object(fields) => {
                        Vertex::from_fields(fields).map_err(|e| e.within(&format!("/vertices/{i}")))
                    }
                    other => Err(Problem::new(
                        format!("/vertices/{i}"),
                        format!("expected an object, found {}", kind_of(&other)),
                    )),
                })
                .collect::<Result<Vec<_>, _>>()?,
            Some(other) => {
                return Err(Problem::new(
                    "/vertices",
                    format!("expected an array, found {}", kind_of(&other)),
                ));
            }
            None => return Err(Problem::new("/vertices", "is missing")),
        };
        let edges = match object.get_mut("edges").map(Value::take) {
            Some(Value::Array(items)) => items
                .into_iter()
                .enumerate()
                .map(|(i, item)| match item {
                    Value::String(text) => Ok(text),
                    other => Err(Problem::new(
                        format!("/edges/{i}"),
                        format!("expected a string, found {}", kind_of(&other)),
                    )),
                })
                .collect::<Result<Vec<_>, _>>()?,
            Some(Value::Null) | None => Vec::new(),
            Some(other) => {
                return Err(Problem::new(
                    "/edges",
                    format!("expected an array, found {}", kind_of(&other)),
                ));
            }
        };
        Ok(JobGraph {
            vertices,
            edges,
            layout: object,
        })
    }

    /// Parses every edge.
    pub fn parsed_edges(&self) -> Result<Vec<Edge>, EdgeError> {
        self.edges.iter().map(|e| parse_edge(e)).collect()
    }

    /// The top-level fields other than `vertices` and `edges`.
    pub fn extra_fields(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.layout
            .iter()
            .filter(|(k, _)| k.as_str() != "vertices" && k.as_str() != "edges")
    }

    /// A graph with the same extra fields (and their order) but other vertices and edges.
    pub fn with_contents(&self, vertices: Vec<Vertex>, edges: Vec<String>) -> Self {
        JobGraph {
            vertices,
            edges,
            layout: self.layout.clone(),
        }
    }

    /// The graph as a JSON value.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

impl Serialize for JobGraph {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // `vertices` and `edges` stand where they stood; a graph that had no `edges` gets them
        // right after `vertices`, and a new graph starts with both.
        let has_vertices = self.layout.contains_key("vertices");
        let has_edges = self.layout.contains_key("edges");
        let mut map = serializer.serialize_map(None)?;
        if !has_vertices {
            map.serialize_entry("vertices", &self.vertices)?;
            if !has_edges {
                map.serialize_entry("edges", &self.edges)?;
            }
        }
        for (key, value) in &self.layout {
            match key.as_str() {
                "vertices" => {
                    map.serialize_entry(key, &self.vertices)?;
                    if !has_edges {
                        map.serialize_entry("edges", &self.edges)?;
                    }
                }
                "edges" => map.serialize_entry(key, &self.edges)?,
                _ => map.serialize_entry(key, value)?,
            }
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for JobGraph {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        JobGraph::from_value(Value::deserialize(deserializer)?).map_err(Problem::into_de_error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_keeps_every_field_and_order() {
        let text = r#"{
  "edges": [
    "a->b"
  ],
  "meta": {
    "z": 1,
    "a": [
      1.5,
      null,
      true
    ]
  },
  "vertices": [
    {
      "name": "a",
      "zeta": 1,
      "type": "custom-thing",
      "alpha": {
        "nested": [
          "x"
        ]
      }
    },
    {
      "type": "logs-sync-sink",
      "name": "b"
    }
  ]
}"#;
        let graph: JobGraph = serde_json::from_str(text).unwrap();
        assert_eq!(serde_json::to_string_pretty(&graph).unwrap(), text);
        assert_eq!(graph.extra_fields().count(), 1);
    }

    #[test]
    fn structural_errors_carry_pointers() {
        let err = JobGraph::from_value(serde_json::json!({"vertices": [{"type": "a"}]}));
        assert_eq!(
            err.unwrap_err().to_string(),
            "/vertices/0: `name` is missing"
        );
        let err = JobGraph::from_value(serde_json::json!({"vertices": [], "edges": [3]}));
        assert_eq!(
            err.unwrap_err().to_string(),
            "/edges/0: expected a string, found a number"
        );
        let err = JobGraph::from_value(serde_json::json!([1])).unwrap_err();
        assert_eq!(err, Problem::new("", "expected an object, found an array"));
        assert_eq!(
            err.to_string(),
            "(root): expected an object, found an array"
        );
        // Through serde the graph may be part of a larger document: no `(root)`.
        let err = serde_json::from_str::<JobGraph>("[1]").unwrap_err();
        assert_eq!(err.to_string(), "expected an object, found an array");
        let err = serde_json::from_str::<JobGraph>(r#"{"vertices": 1}"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "/vertices: expected an array, found a number"
        );
    }

    #[test]
    fn missing_edges_means_none_and_are_written_after_vertices() {
        let graph =
            JobGraph::from_value(serde_json::json!({"meta": 1, "vertices": [], "x": 2})).unwrap();
        assert!(graph.edges.is_empty());
        assert_eq!(
            serde_json::to_string(&graph).unwrap(),
            r#"{"meta":1,"vertices":[],"edges":[],"x":2}"#
        );
        let fresh = JobGraph::new(Vec::new(), vec!["a -> b".into()]);
        assert_eq!(
            serde_json::to_string(&fresh).unwrap(),
            r#"{"vertices":[],"edges":["a -> b"]}"#
        );
    }
}
