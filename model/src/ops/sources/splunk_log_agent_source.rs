//! `splunk-log-agent-source`: Streaming source fed by the integration's Splunk HTTP Event Collector
//! endpoint (/services/collector/event). Emits log events on `output`.
//!
//! Fields as the public service documents them (grepr/cli
//! src/main/typescript/openapi/openApiTypes.ts (newest stored version, 802,951 chars):
//! components.schemas.SplunkLogAgentSource; enum values at end of file; grepr/cli
//! skills/operations-reference/SKILL.md (older and newer stored versions); grepr/cli
//! skills/job-graph-patterns/SKILL.md).

use crate::ops::{Describe, Operation, PredicateUse, Role};

pub use super::agent::AgentSource as SplunkLogAgentSource;

/// `splunk-log-agent-source` in the catalog.
pub static OPERATION: Operation = Operation {
    type_name: "splunk-log-agent-source",
    role: Role::Source,
    summary: crate::doc_text!(
        "Streaming source fed by the integration's Splunk HTTP Event Collector endpoint (/services/collector/event). Emits log events on `output`."
    ),
    example: crate::doc_text!(
        r#"{"type": "splunk-log-agent-source", "name": "splunk_log_agent_source", "integrationId": "dd-prod"}"#
    ),
    outputs: &[],
    predicate: PredicateUse::None,
    config: <SplunkLogAgentSource as Describe>::shape,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_reads_as_the_config() {
        crate::ops::testing::example_reads_as_the_config::<SplunkLogAgentSource>(&OPERATION);
    }

    #[test]
    fn wrong_fields_are_reported_with_their_pointer() {
        crate::ops::testing::each_field_rejects_a_wrong_value(&OPERATION);
    }
}
