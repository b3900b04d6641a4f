//! `logs-event-sampler`: Token-bucket rate limiter: passes at most maxAllowedRate events/second
//! (spread over parallel subtasks) with bursts up to maxBurstLimit; if `filter` is set only
//! matching events are rate-limited and the rest pass untouched. Recommended in every synchronous
//! streaming job.
//!
//! Fields as the public service documents them (grepr/cli
//! src/main/typescript/openapi/openApiTypes.ts (newest stored version, 802,951 chars):
//! components.schemas.LogsEventSampler; enum values at end of file; grepr/cli
//! skills/operations-reference/SKILL.md (older and newer stored versions); grepr/cli
//! docs-index-source/app/apis/job-creation-guide/page.mdx).
//!
//! Decisions where the sources are silent or disagree:
//! - Bounds are not documented; we require maxAllowedRate > 0 and maxBurstLimit >= 1.
//! - Semantics of `filter` (non-matching pass vs. dropped) is stated as 'Can selectively sample
//!   events matching a filter predicate' — we let non-matching events pass unsampled.

use crate::config;
use crate::ops::{Describe, Operation, PredicateUse, Role};
use serde_json::Value;

config! {
    /// The configuration of a `logs-event-sampler` vertex.
    pub struct LogsEventSampler {
        /// Events per second (double).
        "maxAllowedRate" [min(0.0), default("10")] => max_allowed_rate: Option<f64>,
        /// Bucket size (burst).
        "maxBurstLimit" [min(1.0), default("2000")] => max_burst_limit: Option<u64>,
        /// Only matching events are sampled (others pass through). EventPredicate: discriminated by
        /// `type`.
        "filter" [predicate] => filter: Option<Value>,
    }
}

/// `logs-event-sampler` in the catalog.
pub static OPERATION: Operation = Operation {
    type_name: "logs-event-sampler",
    role: Role::Transform,
    summary: crate::doc_text!(
        "Token-bucket rate limiter: passes at most maxAllowedRate events/second (spread over parallel subtasks) with bursts up to maxBurstLimit; if `filter` is set only matching events are rate-limited and the rest pass untouched. Recommended in every synchronous streaming job."
    ),
    example: crate::doc_text!(r#"{"type": "logs-event-sampler", "name": "logs_event_sampler"}"#),
    outputs: &[],
    predicate: PredicateUse::None,
    config: <LogsEventSampler as Describe>::shape,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_reads_as_the_config() {
        crate::ops::testing::example_reads_as_the_config::<LogsEventSampler>(&OPERATION);
    }

    #[test]
    fn wrong_fields_are_reported_with_their_pointer() {
        crate::ops::testing::each_field_rejects_a_wrong_value(&OPERATION);
    }
}
