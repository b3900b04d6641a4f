//! Runs a resolved job graph on events (`docs/pipeline.md`): [`LogEvent`]s, the query language
//! ([`Query`]), what each vertex type does, and a [`Run`] that records every vertex's input and
//! output. Pure Rust, no I/O: the same results natively and in WebAssembly.
//!
//! ```
//! use jobgraph_core::JobGraph;
//! use jobgraph_core::pipeline::{Pipeline, RunInput, RunOptions, read_events};
//! let graph: JobGraph = serde_json::from_value(serde_json::json!({
//!     "vertices": [
//!         {"type": "logs-iceberg-table-source", "name": "in", "table": "logs"},
//!         {"type": "logs-filter", "name": "errors", "query": {"type": "simple-query", "query": "level:error"}},
//!         {"type": "log-transform", "name": "mark", "transforms": [
//!             {"type": "tag-action", "order": 1, "modification": "ADD", "tagKey": "routed", "values": ["vendor"]}]},
//!         {"type": "logs-sync-sink", "name": "out"}],
//!     "edges": ["in -> errors", "errors -> mark", "mark -> out"]})).unwrap();
//! let events = read_events(r#"{"message": "disk full", "tags": {"level": ["error"]}}
//! {"message": "ok", "tags": {"level": ["info"]}}"#).unwrap();
//! let run = Pipeline::compile(&graph).unwrap()
//!     .run(RunInput { events, ..Default::default() }, &RunOptions::default()).unwrap();
//! assert_eq!(run.sinks["out"].len(), 1);
//! assert_eq!(run.sinks["out"][0].tags["routed"], ["vendor"]);
//! assert_eq!(run.vertices[1].events_dropped, 1);
//! ```

use jobgraph_model::attributes;
mod attr_tree;
#[cfg(feature = "grok")]
mod grok_stage;
mod json_stage;
mod keyvalue;
pub mod query;
mod reduce;
mod remap;
mod report;
mod run;
mod sampler;
mod stages;
mod stream;
mod time;
mod typed;

pub use jobgraph_model::{EventError, EventsError, LogEvent, Tags, read_events, write_ndjson};
pub use query::{PredicateError, Query, QueryError, vertex_predicate};
pub use reduce::{PatternMiner, PatternReport};
pub use remap::severity_of;
pub use report::{Change, EdgeCount, KeptEvent, Run, RunInput, RunOptions, VertexRun};
#[cfg(feature = "snapshot")]
pub use run::SnapshotError;
pub use run::{Pipeline, Running};
pub use stream::{StreamError, StreamOptions, StreamRun, run_ndjson};
pub use time::{epoch_millis, event_time_ms};

/// Why a run could not start or finish.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    /// A vertex's query does not parse.
    #[error("{error} (vertex {vertex})")]
    Query {
        /// The vertex.
        vertex: String,
        /// The query's error, with its column.
        error: QueryError,
    },
    /// A vertex's fields are not what its type needs.
    #[error("Invalid job graph: vertex {vertex}: {message}")]
    Vertex {
        /// The vertex.
        vertex: String,
        /// What is wrong.
        message: String,
    },
    /// A `template-operation` is still in the graph.
    #[error(
        "Invalid job graph: vertex {vertex} is a template-operation: resolve the job before running it"
    )]
    Unresolved {
        /// The vertex.
        vertex: String,
    },
    /// The edges do not make a runnable graph.
    #[error("Invalid job graph: {0}")]
    Graph(String),
    /// A limit of the run.
    #[error("Run limit exceeded: {0}")]
    Limit(String),
}
