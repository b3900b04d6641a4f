//! `logs-values-source`: Emits the inline `values` events (for tests, drafts and sample-log
//! replays). In BATCH it emits each value once and ends; in STREAMING it stops after one pass
//! unless `loop` is true.
//!
//! Fields as the public service documents them (grepr/cli
//! src/main/typescript/openapi/openApiTypes.ts (newest stored version, 802,951 chars):
//! components.schemas.LogsValuesSource; enum values at end of file and LogEvent; grepr/cli
//! skills/operations-reference/SKILL.md (older and newer stored versions); grepr/cli
//! skills/job-graph-patterns/SKILL.md).
//!
//! Decisions where the sources are silent or disagree:
//! - Relax LogEvent required fields inside `values` (id, eventTimestamp, receivedTimestamp are
//!   schema-required on LogEvent but absent in every public example).
//! - Accept `logs` as an alias of `values` (wire-notes: one public example) and `indefinite` as an
//!   alias of `loop`.

use crate::config;
use crate::ops::{Describe, Operation, PredicateUse, Role};
use serde_json::{Map, Value};

config! {
    /// The configuration of a `logs-values-source` vertex.
    pub struct LogsValuesSource {
        /// Inline LogEvents. Public examples give only message/tags/severity/attributes; missing id
        /// and timestamps are filled in (id generated, timestamps = now).
        "values" [default("[]")] => values: Option<Vec<Map<String, Value>>>,
        /// STREAMING only: loop over the values indefinitely; ignored in BATCH.
        "loop" [default("false")] => r#loop: Option<bool>,
        /// LEGACY: sent as false by the CLI's job-graph-transformer (sample-data path); not in the
        /// schema. Treat as alias of `loop`.
        "indefinite" [] => indefinite: Option<bool>,
        /// The events of `values` under another name (accepted when `values` is absent).
        "logs" [] => logs: Option<Vec<Map<String, Value>>>,
        /// Only the inline events it matches are emitted (the public service's name).
        "predicate" [predicate] => predicate: Option<Value>,
        /// Only the inline events it matches are emitted (the interface document's name).
        "query" [predicate] => query: Option<Value>,
    }
}

/// `logs-values-source` in the catalog.
pub static OPERATION: Operation = Operation {
    type_name: "logs-values-source",
    role: Role::Source,
    summary: crate::doc_text!(
        "Emits the inline `values` events (for tests, drafts and sample-log replays). In BATCH it emits each value once and ends; in STREAMING it stops after one pass unless `loop` is true."
    ),
    example: crate::doc_text!(
        r#"{"type": "logs-values-source", "name": "samples", "values": [{"message": "GET /health 200", "severity": 9, "tags": {"service": ["web"]}}]}"#
    ),
    outputs: &[],
    predicate: PredicateUse::Optional,
    config: <LogsValuesSource as Describe>::shape,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_reads_as_the_config() {
        crate::ops::testing::example_reads_as_the_config::<LogsValuesSource>(&OPERATION);
    }

    #[test]
    fn wrong_fields_are_reported_with_their_pointer() {
        crate::ops::testing::each_field_rejects_a_wrong_value(&OPERATION);
    }
}
