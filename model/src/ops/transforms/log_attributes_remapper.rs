//! `log-attributes-remapper`: Moves/copies well-known attributes to top-level fields (message,
//! eventTimestamp, severity) and tags (host, service, trace id), maps attributes to tags, and
//! applies ordered attribute rename rules. Every field is optional; the UI adds one with defaults
//! ('auto-configured').
//!
//! Fields as the public service documents them (grepr/cli
//! src/main/typescript/openapi/openApiTypes.ts (newest stored version, 802,951 chars):
//! components.schemas.LogAttributesRemapper; enum values at end of file and AttributeRemappingRule;
//! grepr/cli docs-index-source/app/transforms/remapper/page.mdx; grepr/cli
//! skills/operations-reference/SKILL.md (older and newer stored versions)).
//!
//! Decisions where the sources are silent or disagree:
//! - messageReservedAttributes default: newest client types \[message,msg,log,M,Message\]; older
//!   types \[message,msg,log,M\]. Use the newest.
//! - The docs table shows 'otelTraceId' while the schema default is 'otelTraceID' — use the schema
//!   spelling.
//! - Priority order is the array order (docs: 'status' beats 'syslog.severity' because it comes
//!   first).
//! - Empty string counts as absent (skills/tune-reduction/reference.md: verified behaviour).

use crate::config;
use crate::ops::{Describe, Operation, PredicateUse, Role};
use indexmap::IndexMap;
use serde_json::Value;

config! {
    /// attributeRemappingRulesItem
    pub struct AttributeRemappingRulesItem {
        /// Source attribute path (dot notation).
        "source" [required] => source: String,
        /// Target attribute path (dot notation); overwritten if present.
        "target" [required] => target: String,
        /// Copy instead of move.
        "preserveSource" [default("false")] => preserve_source: Option<bool>,
        /// Apply the rule only to matching events. EventPredicate: discriminated by `type`.
        "predicate" [predicate] => predicate: Option<Value>,
    }
}

config! {
    /// The configuration of a `log-attributes-remapper` vertex.
    pub struct LogAttributesRemapper {
        /// Dotted attributes searched (in order) for `message`.
        "messageReservedAttributes" [default("[\"message\", \"msg\", \"log\", \"M\", \"Message\"]")] => message_reserved_attributes: Option<Vec<String>>,
        /// Segment-array paths searched for `message`.
        "messageReservedAttributePaths" [default("[]")] => message_reserved_attribute_paths: Option<Vec<Vec<String>>>,
        /// Keep the source attribute after remapping (message source is removed by default;
        /// greprMeta.messageAttributePath records it).
        "messagePreserveSource" [default("false")] => message_preserve_source: Option<bool>,
        /// Attributes searched for the event timestamp.
        "timestampReservedAttributes" [default("[\"@timestamp\", \"timestamp\", \"_timestamp\", \"Timestamp\", \"eventTime\", \"date\", \"published_date\", \"syslog.timestamp\", \"T\"]")] => timestamp_reserved_attributes: Option<Vec<String>>,
        /// Segment-array paths for the timestamp.
        "timestampReservedAttributePaths" [default("[]")] => timestamp_reserved_attribute_paths: Option<Vec<Vec<String>>>,
        /// Keep the source attribute.
        "timestampPreserveSource" [default("true")] => timestamp_preserve_source: Option<bool>,
        /// Attributes searched for host (written to tag `host`).
        "hostReservedAttributes" [default("[\"host\", \"hostname\", \"syslog.hostname\", \"kubernetes.host\", \"sourceIPAddress\"]")] => host_reserved_attributes: Option<Vec<String>>,
        /// Segment-array paths for host.
        "hostReservedAttributePaths" [default("[[\"_resource\", \"host.name\"]]")] => host_reserved_attribute_paths: Option<Vec<Vec<String>>>,
        /// Keep the source attribute.
        "hostPreserveSource" [default("true")] => host_preserve_source: Option<bool>,
        /// Attributes searched for service (tag `service`).
        "serviceReservedAttributes" [default("[\"service\", \"syslog.appname\", \"dd.service\", \"kubernetes.labels.app\", \"labels.app\", \"kubernetes.labels.k8s-app\", \"labels.k8s-app\", \"eventSource\"]")] => service_reserved_attributes: Option<Vec<String>>,
        /// Segment-array paths for service.
        "serviceReservedAttributePaths" [default("[[\"_resource\", \"service.name\"], [\"kubernetes\", \"labels\", \"app.kubernetes.io/name\"], [\"labels\", \"app.kubernetes.io/name\"]]")] => service_reserved_attribute_paths: Option<Vec<Vec<String>>>,
        /// Keep the source attribute.
        "servicePreserveSource" [default("true")] => service_preserve_source: Option<bool>,
        /// Attributes searched for status/severity.
        "statusReservedAttributes" [default("[\"log.level\", \"status\", \"severity\", \"level\", \"syslog.severity\", \"L\"]")] => status_reserved_attributes: Option<Vec<String>>,
        /// Segment-array paths for status.
        "statusReservedAttributePaths" [default("[]")] => status_reserved_attribute_paths: Option<Vec<Vec<String>>>,
        /// Keep the source attribute.
        "statusPreserveSource" [default("true")] => status_preserve_source: Option<bool>,
        /// Attributes searched for the trace id.
        "traceIdReservedAttributes" [default("[\"dd.trace_id\", \"contextMap.dd.trace_id\", \"otelTraceID\"]")] => trace_id_reserved_attributes: Option<Vec<String>>,
        /// Segment-array paths for the trace id.
        "traceIdReservedAttributePaths" [default("[]")] => trace_id_reserved_attribute_paths: Option<Vec<Vec<String>>>,
        /// Keep the source attribute.
        "traceIdPreserveSource" [default("true")] => trace_id_preserve_source: Option<bool>,
        /// Tag key -> ordered dotted attribute paths; every found value is added to the tag
        /// (existing values kept).
        "tagMappings" [default("{}")] => tag_mappings: Option<IndexMap<String, Vec<String>>>,
        /// Tag key -> ordered segment-array paths (same semantics).
        "tagMappingPaths" [default("{}")] => tag_mapping_paths: Option<IndexMap<String, Vec<Vec<String>>>>,
        /// Keep the attributes used by tagMappings.
        "tagMappingsPreserveSource" [default("false")] => tag_mappings_preserve_source: Option<bool>,
        /// Dotted paths of maps (string -> string or list) whose entries are added to tags.
        "tagMappingsLocations" [default("[]")] => tag_mappings_locations: Option<Vec<String>>,
        /// Segment-array paths of such maps.
        "tagMappingsLocationPaths" [default("[]")] => tag_mappings_location_paths: Option<Vec<Vec<String>>>,
        /// Keep those maps.
        "tagMappingsLocationPreserveSource" [default("false")] => tag_mappings_location_preserve_source: Option<bool>,
        /// Rename rules applied in order (move, or copy with preserveSource).
        "attributeRemappingRules" [default("[]")] => attribute_remapping_rules: Option<Vec<AttributeRemappingRulesItem>>,
    }
}

/// `log-attributes-remapper` in the catalog.
pub static OPERATION: Operation = Operation {
    type_name: "log-attributes-remapper",
    role: Role::Transform,
    summary: crate::doc_text!(
        "Moves/copies well-known attributes to top-level fields (message, eventTimestamp, severity) and tags (host, service, trace id), maps attributes to tags, and applies ordered attribute rename rules. Every field is optional; the UI adds one with defaults ('auto-configured')."
    ),
    example: crate::doc_text!(
        r#"{"type": "log-attributes-remapper", "name": "log_attributes_remapper"}"#
    ),
    outputs: &[],
    predicate: PredicateUse::None,
    config: <LogAttributesRemapper as Describe>::shape,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_reads_as_the_config() {
        crate::ops::testing::example_reads_as_the_config::<LogAttributesRemapper>(&OPERATION);
    }

    #[test]
    fn wrong_fields_are_reported_with_their_pointer() {
        crate::ops::testing::each_field_rejects_a_wrong_value(&OPERATION);
    }
}
