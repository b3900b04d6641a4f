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

pub use super::agent::AgentSource as OtlpLogAgentSource;

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

    #[test]
    fn the_example_reads_as_the_config() {
        crate::ops::testing::example_reads_as_the_config::<OtlpLogAgentSource>(&OPERATION);
    }

    #[test]
    fn wrong_fields_are_reported_with_their_pointer() {
        crate::ops::testing::each_field_rejects_a_wrong_value(&OPERATION);
    }
}
