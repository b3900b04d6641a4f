//! # jobgraph-model
//!
//! The data of jobgraph, with no script engine, no JSON Schema validator and no HTTP: what a
//! program needs to read, write and check job graphs and to speak the service's API.
//!
//! - Job graphs: [`JobGraph`], [`Vertex`], [`Edge`] ([`parse_edge`]); the typed views of the
//!   known vertex types ([`VertexKind`]).
//! - Log events: [`LogEvent`], [`read_events`], [`write_ndjson`].
//! - Templates' data: [`Template`], [`DraftOutput`], [`TemplateSource`], [`TemplateSet`].
//! - [`api`]: the request and response bodies of the service's API (feature `openapi` adds
//!   their OpenAPI schemas).
//! - [`job_to_test`]: a job turned into its test job (`job:to-test`).
//! - [`lifecycle`]: the public job lifecycle, its states and the steps between them.
//! - [`names`]: the rule of names that become parts of storage paths.
//! - [`Problem`]: what is wrong, at which JSON pointer; reading a graph or a vertex's typed
//!   view fails with one, validation (in `jobgraph-core`) lists them.
//!
//! `jobgraph-core` (validation, the sandbox, the resolver, the pipeline engine) re-exports
//! these types at their former paths.
//!
//! ```
//! use jobgraph_model::JobGraph;
//! let graph: JobGraph = serde_json::from_str(
//!     r#"{"vertices": [{"type": "logs-sync-sink", "name": "out"}], "edges": []}"#,
//! ).unwrap();
//! assert_eq!(graph.vertices[0].name(), "out");
//! ```

#![warn(missing_docs)]

// The catalog's macros name this crate by its name, inside it as outside.
extern crate self as jobgraph_model;

pub mod api;
#[doc(hidden)]
pub mod attributes;
pub mod edge;
mod event;
mod graph;
mod grok_rules;
pub mod grok_wire;
pub mod json;
pub mod lifecycle;
pub mod names;
pub mod ops;
pub mod permissions;
mod problem;
mod source;
mod template;
pub mod to_test;
pub mod vertex;

pub use edge::{Edge, EdgeError, Endpoint, format_edge, parse_edge};
#[doc(hidden)]
pub use event::read_lines;
pub use event::{EventError, EventsError, LogEvent, Tags, read_events, write_ndjson};
pub use graph::JobGraph;
pub use grok_rules::{GrokRules, RulesLine};
pub use json::{JsonError, MAX_JSON_DEPTH, parse_json};
pub use problem::{Problem, join_problems};
pub use source::{FetchError, TemplateSet, TemplateSource};
pub use template::{DraftOutput, Template, TemplateError};
pub use to_test::{TestSink, ToTestError, ToTestOptions, job_to_test};
pub use vertex::{
    GrokParserVertex, LogTransform, LogsFilter, LogsIcebergTableSink, LogsIcebergTableSource,
    LogsSyncSink, TagAction, TagModification, TemplateOperation, Transform, Vertex, VertexKind,
};
