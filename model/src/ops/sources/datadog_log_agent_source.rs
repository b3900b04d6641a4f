//! `datadog-log-agent-source`: Streaming source fed by the integration's Datadog-Agent-compatible
//! HTTP log intake (Agent with HTTP forced, Fluent Bit/Fluentd Datadog outputs). Emits log events
//! on `output`; typically followed by a filter, JSON parser and remapper.
//!
//! Fields as the public service documents them (grepr/cli
//! src/main/typescript/openapi/openApiTypes.ts (newest stored version, 802,951 chars):
//! components.schemas.DatadogLogAgentSource; enum values at end of file; grepr/cli
//! skills/operations-reference/SKILL.md (older and newer stored versions); grepr/cli
//! skills/job-graph-patterns/SKILL.md).
//!
//! Decisions where the sources are silent or disagree:
//! - integrationId is required by the schema; job-creation-guide examples omit it — treat those
//!   examples as abbreviated and reject a missing integrationId.
//! - offsetResetStrategy and hostEnrichmentEnabled concern the service's Kafka consumer / host
//!   enrichment; accept and store them, implement as no-ops or best effort.

use crate::config;
use crate::ops::{Describe, Operation, PredicateUse, Role};

use super::agent::OffsetResetStrategy;

config! {
    /// The configuration of a `datadog-log-agent-source` vertex.
    pub struct DatadogLogAgentSource {
        /// The Datadog integration whose ingest endpoint feeds this source.
        "integrationId" [required] => integration_id: String,
        /// Where to start when no committed offset exists (service-side Kafka): EARLIEST (oldest
        /// retained), LATEST (newest; current behaviour), NONE.
        "offsetResetStrategy" [default("\"LATEST\"")] => offset_reset_strategy: Option<OffsetResetStrategy>,
        /// Enrich events with host metadata (undocumented beyond the schema).
        "hostEnrichmentEnabled" [default("false")] => host_enrichment_enabled: Option<bool>,
    }
}

/// `datadog-log-agent-source` in the catalog.
pub static OPERATION: Operation = Operation {
    type_name: "datadog-log-agent-source",
    role: Role::Source,
    summary: crate::doc_text!(
        "Streaming source fed by the integration's Datadog-Agent-compatible HTTP log intake (Agent with HTTP forced, Fluent Bit/Fluentd Datadog outputs). Emits log events on `output`; typically followed by a filter, JSON parser and remapper."
    ),
    example: crate::doc_text!(
        r#"{"type": "datadog-log-agent-source", "name": "datadog_log_agent_source", "integrationId": "dd-prod"}"#
    ),
    outputs: &[],
    predicate: PredicateUse::None,
    config: <DatadogLogAgentSource as Describe>::shape,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_reads_as_the_config() {
        crate::ops::testing::example_reads_as_the_config::<DatadogLogAgentSource>(&OPERATION);
    }

    #[test]
    fn wrong_fields_are_reported_with_their_pointer() {
        crate::ops::testing::each_field_rejects_a_wrong_value(&OPERATION);
    }
}
