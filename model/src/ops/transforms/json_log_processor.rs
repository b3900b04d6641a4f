//! `json-log-processor`: Parses a JSON `message` into `attributes` (message cleared unless
//! preserveJsonMessageField) and also decodes JSON strings found at resolveNestedJsonFields paths
//! (iteratively); malformed JSON passes unchanged.
//!
//! Fields as the public service documents them (grepr/cli
//! src/main/typescript/openapi/openApiTypes.ts (newest stored version, 802,951 chars):
//! components.schemas.JsonLogProcessor; enum values at end of file; grepr/cli
//! docs-index-source/app/transforms/json-parsing/page.mdx; grepr/cli
//! skills/operations-reference/SKILL.md (older and newer stored versions)).
//!
//! Decisions where the sources are silent or disagree:
//! - Minimums not documented; we use >= 0 (0 iterations disables nested resolution).

use crate::config;
use crate::ops::{Describe, Operation, PredicateUse, Role};

config! {
    /// The configuration of a `json-log-processor` vertex.
    pub struct JsonLogProcessor {
        /// Max nesting depth of parsed fields.
        "maxNestedDepthForFields" [min(0.0), default("3")] => max_nested_depth_for_fields: Option<u64>,
        /// Max passes resolving nested JSON strings.
        "maxNestedJsonIterations" [min(0.0), default("5")] => max_nested_json_iterations: Option<u64>,
        /// Attribute paths (segment arrays) whose string values are decoded as JSON and merged into
        /// the root of attributes.
        "resolveNestedJsonFields" [default("[[\"message\"], [\"msg\"], [\"log\"]]")] => resolve_nested_json_fields: Option<Vec<Vec<String>>>,
        /// Keep the JSON text in `message`.
        "preserveJsonMessageField" [default("false")] => preserve_json_message_field: Option<bool>,
        /// Object-valued fields whose children are lifted into the containing object (recursive;
        /// maps merged, later field wins).
        "liftFieldNames" [default("[]")] => lift_field_names: Option<Vec<String>>,
    }
}

/// `json-log-processor` in the catalog.
pub static OPERATION: Operation = Operation {
    type_name: "json-log-processor",
    role: Role::Transform,
    summary: crate::doc_text!(
        "Parses a JSON `message` into `attributes` (message cleared unless preserveJsonMessageField) and also decodes JSON strings found at resolveNestedJsonFields paths (iteratively); malformed JSON passes unchanged."
    ),
    example: crate::doc_text!(r#"{"type": "json-log-processor", "name": "json_log_processor"}"#),
    outputs: &[],
    predicate: PredicateUse::None,
    config: <JsonLogProcessor as Describe>::shape,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_reads_as_the_config() {
        crate::ops::testing::example_reads_as_the_config::<JsonLogProcessor>(&OPERATION);
    }

    #[test]
    fn wrong_fields_are_reported_with_their_pointer() {
        crate::ops::testing::each_field_rejects_a_wrong_value(&OPERATION);
    }
}
