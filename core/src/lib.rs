//! # jobgraph-core
//!
//! Job-graph model, edge grammar, validation, template input validation, the script sandbox and
//! the recursive template resolver. Pure Rust with no I/O; builds for native targets and
//! `wasm32-unknown-unknown`.

pub mod edge;
pub mod error;
mod execution;
pub mod graph;
pub mod inputs;
mod js_json;
pub mod memory;
mod nesting;
pub mod resolve;
pub mod sandbox;
pub mod source;
pub mod template;
pub mod test_operation;
pub mod validate;
pub mod vertex;

pub use edge::{Edge, EdgeError, Endpoint, format_edge, parse_edge};
pub use error::{Error, Location};
pub use graph::{JobGraph, Vertex};
pub use inputs::InputSchema;
pub use resolve::{
    MAX_DEPTH, Provenance, Resolution, ResolveOptions, ready_now, resolve, resolve_document,
    resolve_document_now, resolve_document_with, resolve_now, resolve_with,
};
pub use sandbox::{
    InProcess, LimitHit, LimitKind, Limits, Sandbox, ScriptError, ScriptFailure, ScriptInput,
    ScriptRequest, run_script,
};
pub use source::{FetchError, TemplateSet, TemplateSource};
pub use template::{DraftOutput, Template};
pub use test_operation::{TestInput, TestRequest, test_template, test_template_with};
pub use validate::{Problem, join_problems, validate_job_graph};
pub use vertex::{TemplateOperation, VertexKind};

/// Unit tests count allocations so that the memory limit is exercised.
#[cfg(test)]
#[global_allocator]
static TEST_ALLOCATOR: memory::CountingAllocator<std::alloc::System> =
    memory::CountingAllocator::new(std::alloc::System);

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;
