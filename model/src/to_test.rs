//! `job:to-test`: a job made observable for a test run, as the public client's `job:to-test`
//! does it.
//!
//! - Every edge `a[:p] -> b[:q]` gets a tagger between its ends: a `log-transform` that ADDs
//!   the tags `grepr.test_run_id=<id>` and `grepr.edge=<a>_<p>_<b>_<q>`, so that each event
//!   that reaches a sink names every edge it took. Unnamed ports print as the defaults,
//!   `output` and `input`.
//! - Every sink (a vertex whose type ends in `-sink`) is replaced by a `logs-sync-sink` of
//!   the same name, or a `logs-iceberg-table-sink` writing to a dataset.
//!
//! The job is transformed as written: edges into and out of `template-operation` vertices get
//! taggers too, but the sinks a template produces are only replaced if the job is resolved
//! first (`jobgraph resolve`).

use std::collections::HashSet;

use crate::{Endpoint, JobGraph, Vertex, parse_edge};
use serde_json::{Value, json};

/// The tag naming the test run.
pub const TEST_RUN_ID_TAG: &str = "grepr.test_run_id";
/// The tag naming an edge an event took.
pub const EDGE_TAG: &str = "grepr.edge";
/// The port an edge leaves by when it names none.
const DEFAULT_OUTPUT: &str = "output";
/// The port an edge enters by when it names none.
const DEFAULT_INPUT: &str = "input";

/// Where the test job's sinks write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TestSink {
    /// `logs-sync-sink`: the events come back to the caller (`job:run`, synchronous jobs).
    Sync,
    /// `logs-iceberg-table-sink` writing to a dataset (and table; `logs` when `None`).
    Dataset {
        /// The dataset's id.
        dataset_id: String,
        /// The table.
        table: Option<String>,
    },
}

/// How to make a test job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToTestOptions {
    /// The test run's id (tag `grepr.test_run_id`).
    pub test_run_id: String,
    /// What replaces the sinks.
    pub sink: TestSink,
}

/// A job that cannot be made a test job.
#[derive(Debug, thiserror::Error)]
pub enum ToTestError {
    /// Not a job file (`jobGraph`) or a bare graph (`vertices`, `edges`).
    #[error("not a job graph: {0} (expected a job file with `jobGraph`, or `{{vertices, edges}}`)")]
    Shape(String),
    /// An edge that does not parse.
    #[error("edge {index} {reason}")]
    Edge {
        /// Its position in `edges`.
        index: usize,
        /// Why.
        reason: String,
    },
    /// An edge naming a vertex the graph does not have.
    #[error(
        "edge {index} `{edge}` names vertex `{vertex}`, which the graph does not have: add it or fix the edge"
    )]
    MissingVertex {
        /// Its position in `edges`.
        index: usize,
        /// The edge as written.
        edge: String,
        /// The missing vertex.
        vertex: String,
    },
}

/// The test job of `job` (a job file with `jobGraph`, or a bare graph): its other fields are
/// kept; see the module's documentation for what changes.
///
/// ```
/// use jobgraph_model::{TestSink, ToTestOptions, job_to_test};
/// use serde_json::json;
///
/// let job = json!({
///     "vertices": [
///         {"type": "logs-iceberg-table-source", "name": "src", "table": "logs"},
///         {"type": "datadog-sink", "name": "out", "integration": "dd"}
///     ],
///     "edges": ["src -> out"]
/// });
/// let options = ToTestOptions { test_run_id: "t1".into(), sink: TestSink::Sync };
/// let test = job_to_test(&job, &options).unwrap();
/// assert_eq!(test["edges"], json!(["src -> src_output_out_input", "src_output_out_input -> out"]));
/// assert_eq!(test["vertices"][1], json!({"type": "logs-sync-sink", "name": "out"}));
/// assert_eq!(test["vertices"][2]["transforms"][1]["values"], json!(["src_output_out_input"]));
/// ```
pub fn job_to_test(job: &Value, options: &ToTestOptions) -> Result<Value, ToTestError> {
    let Some(object) = job.as_object() else {
        return Err(ToTestError::Shape("the file is not a JSON object".into()));
    };
    match object.get("jobGraph") {
        Some(graph) => {
            let mut out = object.clone();
            out.insert(
                "jobGraph".into(),
                graph_to_test(graph, "/jobGraph", options)?,
            );
            Ok(Value::Object(out))
        }
        None if object.contains_key("vertices") => graph_to_test(job, "", options),
        None => Err(ToTestError::Shape(
            "it has neither `jobGraph` nor `vertices`".into(),
        )),
    }
}

/// The test job of the graph found at `pointer` in the file.
fn graph_to_test(
    graph: &Value,
    pointer: &str,
    options: &ToTestOptions,
) -> Result<Value, ToTestError> {
    let graph = JobGraph::from_value(graph.clone())
        .map_err(|e| ToTestError::Shape(e.within(pointer).to_string()))?;
    let mut names: HashSet<String> = graph.vertices.iter().map(|v| v.name().to_owned()).collect();
    let mut vertices: Vec<Vertex> = graph
        .vertices
        .iter()
        .map(|v| replace_sink(v, &options.sink))
        .collect::<Result<_, _>>()?;
    let mut edges = Vec::with_capacity(graph.edges.len() * 2);
    for (index, text) in graph.edges.iter().enumerate() {
        let edge = parse_edge(text).map_err(|e| ToTestError::Edge {
            index,
            reason: e.to_string(),
        })?;
        for end in [&edge.from, &edge.to] {
            if !names.contains(&end.vertex) {
                return Err(ToTestError::MissingVertex {
                    index,
                    edge: text.clone(),
                    vertex: end.vertex.clone(),
                });
            }
        }
        let label = edge_label(&edge.from, &edge.to);
        // The tagger is named after the edge; a name already taken gets a number.
        let mut name = label.clone();
        let mut n = 2;
        while names.contains(&name) {
            name = format!("{label}-{n}");
            n += 1;
        }
        names.insert(name.clone());
        vertices.push(tagger(&name, &label, &options.test_run_id)?);
        edges.push(format!("{} -> {name}", edge.from));
        edges.push(format!("{name} -> {}", edge.to));
    }
    Ok(graph.with_contents(vertices, edges).to_value())
}

/// `<a>_<p>_<b>_<q>`, unnamed ports as `output` and `input`.
fn edge_label(from: &Endpoint, to: &Endpoint) -> String {
    format!(
        "{}_{}_{}_{}",
        from.vertex,
        from.port.as_deref().unwrap_or(DEFAULT_OUTPUT),
        to.vertex,
        to.port.as_deref().unwrap_or(DEFAULT_INPUT)
    )
}

fn tagger(name: &str, label: &str, run_id: &str) -> Result<Vertex, ToTestError> {
    let fields = json!({
        "type": "log-transform",
        "name": name,
        "transforms": [
            {"type": "tag-action", "order": 0, "modification": "ADD", "tagKey": TEST_RUN_ID_TAG, "values": [run_id]},
            {"type": "tag-action", "order": 1, "modification": "ADD", "tagKey": EDGE_TAG, "values": [label]},
        ],
    });
    vertex(fields)
}

fn replace_sink(v: &Vertex, sink: &TestSink) -> Result<Vertex, ToTestError> {
    if !v.vertex_type().ends_with("-sink") {
        return Ok(v.clone());
    }
    let fields = match sink {
        TestSink::Sync => json!({"type": "logs-sync-sink", "name": v.name()}),
        TestSink::Dataset { dataset_id, table } => {
            let mut f = json!({"type": "logs-iceberg-table-sink", "name": v.name(), "datasetId": dataset_id});
            if let (Some(table), Some(object)) = (table, f.as_object_mut()) {
                object.insert("table".into(), Value::String(table.clone()));
            }
            f
        }
    };
    vertex(fields)
}

fn vertex(fields: Value) -> Result<Vertex, ToTestError> {
    let Value::Object(map) = fields else {
        return Err(ToTestError::Shape(
            "internal: a vertex that is not an object".into(),
        ));
    };
    Vertex::from_fields(map).map_err(|e| ToTestError::Shape(e.message))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{TestSink, ToTestError, ToTestOptions, job_to_test};

    fn options(sink: TestSink) -> ToTestOptions {
        ToTestOptions {
            test_run_id: "run1".into(),
            sink,
        }
    }

    #[test]
    fn tags_every_edge_with_its_ports_and_keeps_the_job_fields() {
        let job = json!({
            "name": "j",
            "jobGraph": {
                "vertices": [
                    {"type": "logs-iceberg-table-source", "name": "src", "table": "logs"},
                    {"type": "logs-filter", "name": "f", "query": {"type": "simple-query", "query": "level:error"}},
                    {"type": "s3-sink", "name": "out", "bucket": "b"},
                    {"type": "discarding-sink", "name": "rest"}
                ],
                "edges": ["src -> f", "f:else -> rest", "f->out:in"]
            }
        });
        let test = job_to_test(&job, &options(TestSink::Sync)).unwrap();
        assert_eq!(test["name"], "j");
        let graph = &test["jobGraph"];
        let parsed = serde_json::from_value::<crate::JobGraph>(graph.clone());
        assert!(parsed.is_ok(), "{parsed:?}");
        assert_eq!(
            graph["edges"],
            json!([
                "src -> src_output_f_input",
                "src_output_f_input -> f",
                "f:else -> f_else_rest_input",
                "f_else_rest_input -> rest",
                "f -> f_output_out_in",
                "f_output_out_in -> out:in"
            ])
        );
        assert_eq!(
            graph["vertices"][2],
            json!({"type": "logs-sync-sink", "name": "out"})
        );
        assert_eq!(
            graph["vertices"][3],
            json!({"type": "logs-sync-sink", "name": "rest"})
        );
        let tagger = &graph["vertices"][4];
        assert_eq!(tagger["type"], "log-transform");
        assert_eq!(tagger["transforms"][0]["tagKey"], "grepr.test_run_id");
        assert_eq!(tagger["transforms"][0]["values"], json!(["run1"]));
        assert_eq!(tagger["transforms"][1]["tagKey"], "grepr.edge");
    }

    #[test]
    fn writes_to_a_dataset_and_renames_a_tagger_whose_name_is_taken() {
        let graph = json!({
            "vertices": [
                {"type": "src", "name": "a"},
                {"type": "x", "name": "a_output_b_input"},
                {"type": "logs-sync-sink", "name": "b"}
            ],
            "edges": ["a -> b"]
        });
        let sink = TestSink::Dataset {
            dataset_id: "ds1".into(),
            table: Some("t".into()),
        };
        let test = job_to_test(&graph, &options(sink)).unwrap();
        assert_eq!(
            test["vertices"][2],
            json!({"type": "logs-iceberg-table-sink", "name": "b", "datasetId": "ds1", "table": "t"})
        );
        assert_eq!(test["vertices"][3]["name"], "a_output_b_input-2");
    }

    #[test]
    fn refuses_what_is_not_a_job_graph() {
        let err = job_to_test(&json!([1]), &options(TestSink::Sync)).unwrap_err();
        assert!(matches!(err, ToTestError::Shape(_)), "{err}");
        // A problem's pointer is the file's: inside `jobGraph`, or the file itself.
        let err = job_to_test(&json!({"jobGraph": [1]}), &options(TestSink::Sync)).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("not a job graph: /jobGraph: expected an object, found an array"),
            "{err}"
        );
        let err = job_to_test(&json!({"vertices": 1}), &options(TestSink::Sync)).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("not a job graph: /vertices: expected an array, found a number"),
            "{err}"
        );
        let err = job_to_test(&json!({"name": "x"}), &options(TestSink::Sync)).unwrap_err();
        assert!(err.to_string().starts_with("not a job graph"), "{err}");
        let graph = json!({"vertices": [{"type": "a", "name": "a"}], "edges": ["a -> ghost"]});
        let err = job_to_test(&graph, &options(TestSink::Sync)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "edge 0 `a -> ghost` names vertex `ghost`, which the graph does not have: add it or fix the edge"
        );
        let graph = json!({"vertices": [], "edges": ["a ->"]});
        let err = job_to_test(&graph, &options(TestSink::Sync)).unwrap_err();
        assert!(matches!(err, ToTestError::Edge { index: 0, .. }), "{err}");
    }
}
