//! `datadog-log-sink`: Sends events to Datadog's log intake with the integration's
//! credentials/site; tags = event tags + integration additionalTags + these additionalTags (Grepr
//! also adds processor:grepr).
//!
//! Fields as the public service documents them (grepr/cli
//! src/main/typescript/openapi/openApiTypes.ts (newest stored version, 802,951 chars):
//! components.schemas.DatadogLogSink; enum values at end of file; grepr/cli
//! skills/operations-reference/SKILL.md (older and newer stored versions); grepr/cli
//! docs-index-source/app/apis/job-creation-guide/page.mdx).
//!
//! Decisions where the sources are silent or disagree:
//! - Empty-array defaults mean 'use the documented built-in list' for hostFieldNames and
//!   browserLogGroupByAttributes.

use crate::config;
use crate::ops::{Describe, Operation, PredicateUse, Role};

config! {
    /// The configuration of a `datadog-log-sink` vertex.
    pub struct DatadogLogSink {
        /// Datadog integration.
        "integrationId" [required] => integration_id: String,
        /// Extra `key:value` tags, combined with the integration's additionalTags.
        "additionalTags" [default("[]")] => additional_tags: Option<Vec<String>>,
        /// Top-level JSON field names the host is written to; empty = \["hostname"\].
        "hostFieldNames" [default("[]")] => host_field_names: Option<Vec<String>>,
        /// Group-by attributes for the browser intake; empty = \["http.useragent",
        /// "network.client.ip"\].
        "browserLogGroupByAttributes" [default("[]")] => browser_log_group_by_attributes: Option<Vec<String>>,
    }
}

/// `datadog-log-sink` in the catalog.
pub static OPERATION: Operation = Operation {
    type_name: "datadog-log-sink",
    role: Role::Sink,
    summary: crate::doc_text!(
        "Sends events to Datadog's log intake with the integration's credentials/site; tags = event tags + integration additionalTags + these additionalTags (Grepr also adds processor:grepr)."
    ),
    example: crate::doc_text!(
        r#"{"type": "datadog-log-sink", "name": "datadog_log_sink", "integrationId": "dd-prod"}"#
    ),
    outputs: &[],
    predicate: PredicateUse::None,
    config: <DatadogLogSink as Describe>::shape,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_reads_as_the_config() {
        crate::ops::testing::example_reads_as_the_config::<DatadogLogSink>(&OPERATION);
    }

    #[test]
    fn wrong_fields_are_reported_with_their_pointer() {
        crate::ops::testing::each_field_rejects_a_wrong_value(&OPERATION);
    }
}
