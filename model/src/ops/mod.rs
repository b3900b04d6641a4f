//! The catalog of operations: every vertex type the service knows, each defined once in its
//! own module (its configuration struct, its documentation with an example, its tests) and
//! registered here by its `type` name.
//!
//! Everything else is derived from it: validation ([`check_config`]), the OpenAPI document's
//! vertex schemas ([`schema`]), the npm package's TypeScript types ([`typescript`]) and the
//! engine's stages (`jobgraph-core` finds a stage by the same names). A vertex of a type not
//! in the catalog is kept and passed through (the public service has types we do not know);
//! the engine names it as not simulated.
//!
//! Adding a type: a module under `sources/`, `transforms/` or `sinks/` declaring its config
//! with [`config!`](crate::config) and its [`Operation`], and its line in [`OPERATIONS`]
//! (`docs/crates.md` shows one).
//!
//! ```
//! use jobgraph_model::ops::{self, Role};
//! let filter = ops::find("logs-filter").unwrap();
//! assert_eq!(filter.role, Role::Transform);
//! assert!(ops::find("grepr-raw-log-source").is_some());
//! assert!(ops::find("some-new-type").is_none());
//! ```

mod check;
pub mod schema;
pub mod shape;
pub mod sinks;
pub mod sources;
#[cfg(test)]
mod testing;
pub mod transforms;
pub mod typescript;

pub use check::{
    check_config, check_predicate_present, expected, unknown_field_warnings, unknown_fields,
};
pub use shape::{Describe, Extra, Field, Shape};

/// An operation of the catalog.
#[derive(Debug)]
pub struct Operation {
    /// Its `type` on the wire.
    pub type_name: &'static str,
    /// Where it stands in a graph.
    pub role: Role,
    /// What it does, in a paragraph (Markdown).
    pub summary: &'static str,
    /// A vertex of this type, as JSON text.
    pub example: &'static str,
    /// Its output ports besides the default one (`logs-branch`: `else`).
    pub outputs: &'static [&'static str],
    /// Whether it takes a predicate (`predicate`, or `query`).
    pub predicate: PredicateUse,
    /// The shape of its configuration (its config struct's [`Describe::shape`]).
    pub config: fn() -> Shape,
}

/// Where an operation stands in a graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Reads events from outside the graph.
    Source,
    /// Turns events into events.
    Transform,
    /// Sends events out of the graph.
    Sink,
}

impl Role {
    /// `source`, `transform` or `sink`.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Source => "source",
            Role::Transform => "transform",
            Role::Sink => "sink",
        }
    }
}

/// Whether an operation takes a predicate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PredicateUse {
    /// It has none.
    None,
    /// It may have one.
    Optional,
    /// It must have one.
    Required,
}

/// Every operation of the catalog, in the order the documentation lists them.
pub static OPERATIONS: &[&Operation] = &[
    // Sources.
    &sources::datadog_log_agent_source::OPERATION,
    &sources::splunk_log_agent_source::OPERATION,
    &sources::newrelic_log_agent_source::OPERATION,
    &sources::sumologic_log_agent_source::OPERATION,
    &sources::otlp_log_agent_source::OPERATION,
    &sources::otel_log_source::OPERATION,
    &sources::logs_iceberg_table_source::OPERATION,
    &sources::grepr_raw_log_source::OPERATION,
    &sources::logs_values_source::OPERATION,
    // Transforms.
    &transforms::logs_filter::OPERATION,
    &transforms::logs_branch::OPERATION,
    &transforms::logs_event_sampler::OPERATION,
    &transforms::grok_parser::OPERATION,
    &transforms::json_log_processor::OPERATION,
    &transforms::keyvalue_processor::OPERATION,
    &transforms::log_attributes_remapper::OPERATION,
    &transforms::log_transform::OPERATION,
    &transforms::sql_operation::OPERATION,
    &transforms::log_reducer::OPERATION,
    &transforms::pattern_matcher::OPERATION,
    &transforms::masking_operator::OPERATION,
    &transforms::template_operation::OPERATION,
    // Sinks.
    &sinks::logs_iceberg_table_sink::OPERATION,
    &sinks::datadog_log_sink::OPERATION,
    &sinks::splunk_log_sink::OPERATION,
    &sinks::newrelic_log_sink::OPERATION,
    &sinks::sumologic_log_sink::OPERATION,
    &sinks::logs_sync_sink::OPERATION,
];

/// The operation of a `type`, if the catalog has it.
pub fn find(type_name: &str) -> Option<&'static Operation> {
    OPERATIONS
        .iter()
        .copied()
        .find(|op| op.type_name == type_name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_is_registered_once_and_its_example_is_valid() {
        for (i, op) in OPERATIONS.iter().enumerate() {
            assert!(
                !OPERATIONS[..i].iter().any(|o| o.type_name == op.type_name),
                "{} registered twice",
                op.type_name
            );
            let example: serde_json::Value = serde_json::from_str(op.example)
                .unwrap_or_else(|e| panic!("{}: example is not JSON: {e}", op.type_name));
            assert_eq!(example["type"], op.type_name, "{}'s example", op.type_name);
            let mut problems = Vec::new();
            let fields = example.as_object().unwrap();
            check_config(op, fields, "", &mut |p, m| {
                problems.push(format!("{p}: {m}"))
            });
            check_predicate_present(op, fields, "", &mut |p, m| {
                problems.push(format!("{p}: {m}"))
            });
            assert!(
                problems.is_empty(),
                "{}'s example: {problems:?}",
                op.type_name
            );
            assert!(
                unknown_fields(op, fields).is_empty(),
                "{}'s example has fields its config lacks: {:?}",
                op.type_name,
                unknown_fields(op, fields)
            );
            assert!(
                matches!((op.config)(), Shape::Object(_)),
                "{}: a config is an object",
                op.type_name
            );
        }
    }
}
