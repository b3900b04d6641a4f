//! `splunk-log-sink`: Sends events to Splunk via HTTP Event Collector using the integration's
//! host/token.
//!
//! Fields as the public service documents them (grepr/cli
//! src/main/typescript/openapi/openApiTypes.ts (newest stored version, 802,951 chars):
//! components.schemas.SplunkLogSink; enum values at end of file; grepr/cli
//! skills/operations-reference/SKILL.md (older and newer stored versions); grepr/cli
//! skills/change-sink/examples.md).

use crate::config;
use crate::ops::{Describe, Operation, PredicateUse, Role};

config! {
    /// The configuration of a `splunk-log-sink` vertex.
    pub struct SplunkLogSink {
        /// Splunk integration.
        "integrationId" [required] => integration_id: String,
        /// Extra tags, combined with the integration's.
        "additionalTags" [default("[]")] => additional_tags: Option<Vec<String>>,
        /// Index used when the event has none.
        "defaultIndex" [] => default_index: Option<String>,
        /// Index forced on every event.
        "indexOverride" [] => index_override: Option<String>,
    }
}

/// `splunk-log-sink` in the catalog.
pub static OPERATION: Operation = Operation {
    type_name: "splunk-log-sink",
    role: Role::Sink,
    summary: crate::doc_text!(
        "Sends events to Splunk via HTTP Event Collector using the integration's host/token."
    ),
    example: crate::doc_text!(
        r#"{"type": "splunk-log-sink", "name": "splunk_log_sink", "integrationId": "dd-prod"}"#
    ),
    outputs: &[],
    predicate: PredicateUse::None,
    config: <SplunkLogSink as Describe>::shape,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_reads_as_the_config() {
        crate::ops::testing::example_reads_as_the_config::<SplunkLogSink>(&OPERATION);
    }

    #[test]
    fn wrong_fields_are_reported_with_their_pointer() {
        crate::ops::testing::each_field_rejects_a_wrong_value(&OPERATION);
    }
}
