//! `logs-branch`: Routes each event: matches leave by the default output (`output`, used by an edge
//! with no port), non-matches by `else` (edge `branch:else -> x`).
//!
//! Fields as the public service documents them (grepr/cli
//! src/main/typescript/openapi/openApiTypes.ts (newest stored version, 802,951 chars):
//! components.schemas.LogsBranch; enum values at end of file; grepr/cli
//! skills/operations-reference/SKILL.md (older and newer stored versions); grepr/cli
//! docs-index-source/app/apis/job-creation-guide/page.mdx).
//!
//! Decisions where the sources are silent or disagree:
//! - Output port names: `output` (default, per CLI DEFAULT_OUTPUT) and `else`. Reject edges from
//!   any other port name.
//! - An unconnected `else` drops non-matching events (not documented; natural Flink side-output
//!   semantics).

use crate::config;
use crate::ops::{Describe, Operation, PredicateUse, Role};
use serde_json::Value;

config! {
    /// The configuration of a `logs-branch` vertex.
    pub struct LogsBranch {
        /// Events routed to the default output. EventPredicate: discriminated by `type`.
        "predicate" [predicate] => predicate: Option<Value>,
        /// The predicate under the interface document's name; `predicate` wins when both are given.
        "query" [predicate] => query: Option<Value>,
    }
}

/// `logs-branch` in the catalog.
pub static OPERATION: Operation = Operation {
    type_name: "logs-branch",
    role: Role::Transform,
    summary: crate::doc_text!(
        "Routes each event: matches leave by the default output (`output`, used by an edge with no port), non-matches by `else` (edge `branch:else -> x`)."
    ),
    example: crate::doc_text!(
        r#"{"type": "logs-branch", "name": "logs_branch", "predicate": {"type": "datadog-query", "query": "level:error"}}"#
    ),
    outputs: &["else"],
    predicate: PredicateUse::Required,
    config: <LogsBranch as Describe>::shape,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_reads_as_the_config() {
        crate::ops::testing::example_reads_as_the_config::<LogsBranch>(&OPERATION);
    }

    #[test]
    fn wrong_fields_are_reported_with_their_pointer() {
        crate::ops::testing::each_field_rejects_a_wrong_value(&OPERATION);
    }
}
