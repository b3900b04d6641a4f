//! `keyvalue-processor`: Extracts key=value pairs from the message into attributes. Listed only in
//! the operations-reference skill table (key properties fieldSeparator, valueSeparator); absent
//! from the client's OpenAPI types and from the service's generated OPERATION_TYPES set.
//!
//! Fields as the public service documents them (grepr/cli skills/operations-reference/SKILL.md
//! (older and newer stored versions); grepr/cli
//! docs-index-source/app/transforms/grok/transformers/page.mdx; grepr/cli openApiTypes.ts,
//! generated SOURCE_TYPES / SINK_TYPES / OPERATION_TYPES sets at end of file (from flink:model)).
//!
//! Decisions where the sources are silent or disagree:
//! - Not a type the public service's schema knows (no KeyValueProcessor schema, not in
//!   OPERATION_TYPES). Keep it because our catalogue lists it; restrict to exactly the two
//!   documented fields, both optional with the grok keyvalue() defaults; no
//!   predicate/extractAttribute.
//! - Empty values and `null` values skipped, last duplicate wins (borrowing the documented
//!   keyvalue() transformer behaviour).

use crate::config;
use crate::ops::{Describe, Operation, PredicateUse, Role};

config! {
    /// The configuration of a `keyvalue-processor` vertex.
    pub struct KeyvalueProcessor {
        /// Separator between pairs. Undocumented default; we use " " (the grok keyvalue()
        /// transformer splits pairs on space, comma, semicolon).
        "fieldSeparator" [default("\" \"")] => field_separator: Option<String>,
        /// Separator between key and value. Undocumented default; we use "=" (grok keyvalue()
        /// default).
        "valueSeparator" [default("\"=\"")] => value_separator: Option<String>,
    }
}

/// `keyvalue-processor` in the catalog.
pub static OPERATION: Operation = Operation {
    type_name: "keyvalue-processor",
    role: Role::Transform,
    summary: crate::doc_text!(
        "Extracts key=value pairs from the message into attributes. Listed only in the operations-reference skill table (key properties fieldSeparator, valueSeparator); absent from the client's OpenAPI types and from the service's generated OPERATION_TYPES set."
    ),
    example: crate::doc_text!(r#"{"type": "keyvalue-processor", "name": "keyvalue_processor"}"#),
    outputs: &[],
    predicate: PredicateUse::None,
    config: <KeyvalueProcessor as Describe>::shape,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_reads_as_the_config() {
        crate::ops::testing::example_reads_as_the_config::<KeyvalueProcessor>(&OPERATION);
    }

    #[test]
    fn wrong_fields_are_reported_with_their_pointer() {
        crate::ops::testing::each_field_rejects_a_wrong_value(&OPERATION);
    }
}
