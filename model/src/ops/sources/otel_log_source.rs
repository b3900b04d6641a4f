//! `otel-log-source`: the older name of
//! [`otlp-log-agent-source`](super::otlp_log_agent_source) (an earlier operations reference of
//! the public service), with the same fields; the current client names the type
//! `otlp-log-agent-source`.

use crate::ops::{Describe, Operation, PredicateUse, Role};

use super::otlp_log_agent_source::OtlpLogAgentSource;

/// `otel-log-source` in the catalog.
pub static OPERATION: Operation = Operation {
    type_name: "otel-log-source",
    role: Role::Source,
    summary: crate::doc_text!(
        "The older name of `otlp-log-agent-source`: logs sent to the integration's OTLP/HTTP endpoint."
    ),
    example: crate::doc_text!(
        r#"{"type": "otel-log-source", "name": "otel", "integrationId": "otlp-prod"}"#
    ),
    outputs: &[],
    predicate: PredicateUse::None,
    config: <OtlpLogAgentSource as Describe>::shape,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrong_fields_are_reported_with_their_pointer() {
        crate::ops::testing::each_field_rejects_a_wrong_value(&OPERATION);
    }
}
