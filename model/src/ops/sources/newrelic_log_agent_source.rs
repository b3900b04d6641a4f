//! `newrelic-log-agent-source`: Streaming source fed by the integration's New Relic-compatible log
//! intake. Emits log events on `output`.
//!
//! Fields as the public service documents them (grepr/cli
//! src/main/typescript/openapi/openApiTypes.ts (newest stored version, 802,951 chars):
//! components.schemas.NewRelicLogAgentSource; enum values at end of file; grepr/cli
//! skills/operations-reference/SKILL.md (older and newer stored versions); grepr/cli
//! skills/job-graph-patterns/SKILL.md).

use crate::ops::{Describe, Operation, PredicateUse, Role};

pub use super::agent::AgentSource as NewrelicLogAgentSource;

/// `newrelic-log-agent-source` in the catalog.
pub static OPERATION: Operation = Operation {
    type_name: "newrelic-log-agent-source",
    role: Role::Source,
    summary: crate::doc_text!(
        "Streaming source fed by the integration's New Relic-compatible log intake. Emits log events on `output`."
    ),
    example: crate::doc_text!(
        r#"{"type": "newrelic-log-agent-source", "name": "newrelic_log_agent_source", "integrationId": "dd-prod"}"#
    ),
    outputs: &[],
    predicate: PredicateUse::None,
    config: <NewrelicLogAgentSource as Describe>::shape,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_reads_as_the_config() {
        crate::ops::testing::example_reads_as_the_config::<NewrelicLogAgentSource>(&OPERATION);
    }

    #[test]
    fn wrong_fields_are_reported_with_their_pointer() {
        crate::ops::testing::each_field_rejects_a_wrong_value(&OPERATION);
    }
}
