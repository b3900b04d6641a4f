//! # jobgraph-core
//!
//! Job graphs (named vertices joined by `from[:port] -> to[:port]` edges) and the templates
//! that generate parts of them: the model, validation, the script sandbox and the recursive
//! resolver. Pure Rust with no I/O; builds for native targets and `wasm32-unknown-unknown`.
//!
//! ## The API in a few lines
//! - [`Resolver`] — built once ([`Resolver::builder`]) from a [`TemplateSource`] (for example
//!   a [`TemplateSet`]), a [`Sandbox`] and [`ResolveOptions`]; then
//!   [`resolve`](Resolver::resolve) a [`JobGraph`], [`resolve_document`](Resolver::resolve_document)
//!   a job document, or [`test`](Resolver::test) a template ([`TestRequest`]), `async` or
//!   `_blocking`. Results of template executions are reused across calls
//!   ([`ExecutionCache`]).
//! - Model: [`JobGraph`], [`Vertex`], [`VertexKind`], [`Edge`] ([`parse_edge`]),
//!   [`Template`]; [`validate_job_graph`] lists every [`Problem`] with its JSON pointer.
//! - Sandbox: [`InProcess`] runs scripts on the calling thread under [`Limits`];
//!   `jobgraph_sdk::ProcessSandbox` runs them in worker processes; [`run_script`] runs one.
//! - Errors: [`Error`], whose messages start with the service's contract prefixes
//!   ([`error::prefix`]), with a [`Location`] and a stable [`Error::code`].
//!
//! ```
//! use jobgraph_core::{Resolver, Template, TemplateSet};
//! let templates: TemplateSet = [Template {
//!     id: "one".into(), version: 1,
//!     template: "({vertices: [{type: 'logs-filter', name: 'f', \
//!                query: {type: 'simple-query', query: 'level:' + level}}], edges: []})".into(),
//!     input_schema: Some(serde_json::json!({"type": "object",
//!         "properties": {"level": {"type": "string", "default": "error"}}})),
//!     ..Default::default()
//! }].into_iter().collect();
//! let resolver = Resolver::new(templates);
//! let job = serde_json::json!({"vertices": [
//!     {"type": "template-operation", "name": "errors", "templateId": "one"}]});
//! let resolved = resolver.resolve_document_blocking(&job).unwrap();
//! assert_eq!(resolved.document["vertices"][0]["name"], "errors.f");
//! assert_eq!(resolved.document["vertices"][0]["query"]["query"], "level:error");
//! ```

#![warn(missing_docs)]

pub mod error;
#[cfg(feature = "grok")]
pub mod grok;
mod inputs;
pub mod pipeline;
mod resolver;
mod sandbox;
mod validate;

// The model (jobgraph-model), re-exported at its former paths.
pub use error::{Error, Location, ResolvedLimit};
pub use inputs::{InputSchema, MatchBudget, SchemaBounds, SchemaError, fill_defaults};
pub use jobgraph_model::{
    DraftOutput, Edge, EdgeError, Endpoint, FetchError, GrokParserVertex, GrokRules, JobGraph,
    JsonError, LogTransform, LogsFilter, LogsIcebergTableSink, LogsIcebergTableSource,
    LogsSyncSink, MAX_JSON_DEPTH, Problem, RulesLine, TagAction, TagModification, Template,
    TemplateError, TemplateOperation, TemplateSet, TemplateSource, Transform, Vertex, VertexKind,
    format_edge, join_problems, parse_edge, parse_json,
};
pub use jobgraph_model::{edge, names};
use jobgraph_model::{json, vertex};
pub use resolver::{
    CacheLimits, CacheStats, ExecutionCache, MAX_DEPTH, Provenance, Resolution, ResolveOptions,
    ResolvedDocument, Resolver, ResolverBuilder, TestInput, TestRequest,
};
pub use sandbox::memory;
pub use sandbox::{
    InProcess, LimitHit, LimitKind, Limits, Sandbox, ScriptError, ScriptFailure, ScriptFuture,
    ScriptInput, ScriptOutput, ScriptRequest, ScriptResult, run_script, set_host_stack_check,
};
pub use validate::validate_job_graph;

/// Unit tests count allocations so that the memory limit is exercised.
#[cfg(test)]
#[global_allocator]
static TEST_ALLOCATOR: memory::CountingAllocator<std::alloc::System> =
    memory::CountingAllocator::new(std::alloc::System);

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;
