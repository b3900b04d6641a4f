//! `sumologic-log-sink`: Sends events to the integration's Sumo Logic HTTP/OTLP endpoint.
//!
//! Fields as the public service documents them (grepr/cli
//! src/main/typescript/openapi/openApiTypes.ts (newest stored version, 802,951 chars):
//! components.schemas.SumoLogSink; enum values at end of file; grepr/cli
//! skills/operations-reference/SKILL.md (older and newer stored versions)).

use crate::config;
use crate::ops::{Describe, Operation, PredicateUse, Role};
use indexmap::IndexMap;

config! {
    /// The configuration of a `sumologic-log-sink` vertex.
    pub struct SumologicLogSink {
        /// Sumo Logic integration (the schema's description wrongly says 'New Relic integration
        /// id').
        "integrationId" [required] => integration_id: String,
        /// Extra attributes (string -> string), combined with the integration's.
        "additionalAttributes" [default("{}")] => additional_attributes: Option<IndexMap<String, String>>,
    }
}

/// `sumologic-log-sink` in the catalog.
pub static OPERATION: Operation = Operation {
    type_name: "sumologic-log-sink",
    role: Role::Sink,
    summary: crate::doc_text!("Sends events to the integration's Sumo Logic HTTP/OTLP endpoint."),
    example: crate::doc_text!(
        r#"{"type": "sumologic-log-sink", "name": "sumologic_log_sink", "integrationId": "dd-prod"}"#
    ),
    outputs: &[],
    predicate: PredicateUse::None,
    config: <SumologicLogSink as Describe>::shape,
};

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn the_example_reads_as_the_config() {
        let config: SumologicLogSink = serde_json::from_str(OPERATION.example).unwrap();
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
