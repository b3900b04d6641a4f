//! `otlp-log-agent-source`: Streaming source fed by the integration's OTLP/HTTP logs endpoint
//! (…/v1/logs; no gRPC). Canonical type string in the client types is `otlp-log-agent-source`; the
//! older operations-reference skill called it `otel-log-source`.
//!
//! Fields as the public service documents them (grepr/cli
//! src/main/typescript/openapi/openApiTypes.ts (newest stored version, 802,951 chars):
//! components.schemas.OtlpLogAgentSource; enum values at end of file; grepr/cli
//! skills/operations-reference/SKILL.md (older and newer stored versions); grepr/cli
//! skills/job-graph-patterns/SKILL.md).
//!
//! Decisions where the sources are silent or disagree:
//! - Canonical type is otlp-log-agent-source (OpenAPI enum OtlpLogAgentSourceType, SOURCE_TYPES
//!   set, newer skill, change-source example). Accept otel-log-source as an input alias (older
//!   skill) and normalise to otlp-log-agent-source on read-back.

use crate::ops::{Describe, Operation, PredicateUse, Role};
use crate::{config, wire_enum};

wire_enum! {
    /// Where to start when no committed offset exists (service-side Kafka): EARLIEST (oldest
    /// retained), LATEST (newest; current behaviour), NONE.
    pub enum OffsetResetStrategy { Earliest = "EARLIEST", Latest = "LATEST", None = "NONE" }
}

config! {
    /// The configuration of a `otlp-log-agent-source` vertex.
    pub struct OtlpLogAgentSource {
        /// The OTLP integration whose ingest endpoint feeds this source.
        "integrationId" [required] => integration_id: String,
        /// Where to start when no committed offset exists (service-side Kafka): EARLIEST (oldest
        /// retained), LATEST (newest; current behaviour), NONE.
        "offsetResetStrategy" [default("\"LATEST\"")] => offset_reset_strategy: Option<OffsetResetStrategy>,
    }
}

/// `otlp-log-agent-source` in the catalog.
pub static OPERATION: Operation = Operation {
    type_name: "otlp-log-agent-source",
    role: Role::Source,
    summary: crate::doc_text!(
        "Streaming source fed by the integration's OTLP/HTTP logs endpoint (…/v1/logs; no gRPC). Canonical type string in the client types is `otlp-log-agent-source`; the older operations-reference skill called it `otel-log-source`."
    ),
    example: crate::doc_text!(
        r#"{"type": "otlp-log-agent-source", "name": "otlp_log_agent_source", "integrationId": "dd-prod"}"#
    ),
    outputs: &[],
    predicate: PredicateUse::None,
    config: <OtlpLogAgentSource as Describe>::shape,
};

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn the_example_reads_as_the_config() {
        let config: OtlpLogAgentSource = serde_json::from_str(OPERATION.example).unwrap();
        let back = serde_json::to_value(&config).unwrap();
        let example: Value = serde_json::from_str(OPERATION.example).unwrap();
        for (key, value) in back.as_object().unwrap() {
            assert_eq!(&example[key], value, "{key}");
        }
    }

    #[test]
    fn wrong_fields_are_reported_with_their_pointer() {
        crate::ops::testing::each_field_rejects_a_wrong_value(&OPERATION);
    }
}
