//! `newrelic-log-sink`: Sends events to New Relic's log API using the integration's license
//! key/site.
//!
//! Fields as the public service documents them (grepr/cli
//! src/main/typescript/openapi/openApiTypes.ts (newest stored version, 802,951 chars):
//! components.schemas.NewRelicLogSink; enum values at end of file; grepr/cli
//! skills/operations-reference/SKILL.md (older and newer stored versions); grepr/cli
//! skills/change-sink/examples.md).

use crate::ops::{Describe, Operation, PredicateUse, Role};

pub use super::attributes_sink::AttributesSink as NewrelicLogSink;

/// `newrelic-log-sink` in the catalog.
pub static OPERATION: Operation = Operation {
    type_name: "newrelic-log-sink",
    role: Role::Sink,
    summary: crate::doc_text!(
        "Sends events to New Relic's log API using the integration's license key/site."
    ),
    example: crate::doc_text!(
        r#"{"type": "newrelic-log-sink", "name": "newrelic_log_sink", "integrationId": "dd-prod"}"#
    ),
    outputs: &[],
    predicate: PredicateUse::None,
    config: <NewrelicLogSink as Describe>::shape,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_reads_as_the_config() {
        crate::ops::testing::example_reads_as_the_config::<NewrelicLogSink>(&OPERATION);
    }

    #[test]
    fn wrong_fields_are_reported_with_their_pointer() {
        crate::ops::testing::each_field_rejects_a_wrong_value(&OPERATION);
    }
}
