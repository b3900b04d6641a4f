//! `logs-filter`: the events its predicate matches pass; with `inverted`, the others do.
//!
//! The predicate is `predicate` (the public service's name) or `query` (the interface
//! document's); `predicate` wins when both are given. Either is a query string or a predicate
//! object (`docs/pipeline.md`, "Predicates"), compiled by
//! `jobgraph_core::pipeline::Query::from_predicate`.

use serde_json::Value;

use crate::config;
use crate::ops::{Describe, Operation, PredicateUse, Role};

config! {
    /// `logs-filter`: the events its predicate matches pass (all others with `inverted`).
    pub struct LogsFilter {
        /// Which logs pass (the public service's name; wins over `query`).
        "predicate" [predicate] => predicate: Option<Value>,
        /// Which logs pass (the interface document's name).
        "query" [predicate] => query: Option<Value>,
        /// Let the events the predicate does not match pass instead.
        "inverted" [default("false")] => inverted: Option<bool>,
        /// Drop events received later than this after their event time (an ISO 8601
        /// duration, `PT2M`); no lateness check when absent. Not simulated.
        "maxLateEventTimestampDelta" [format("duration")] => max_late_event_timestamp_delta: Option<String>,
    }
}

/// `logs-filter` in the catalog.
pub static OPERATION: Operation = Operation {
    type_name: "logs-filter",
    role: Role::Transform,
    summary: crate::doc_text!(
        "Keeps the events its predicate matches (with `inverted`, the others) and drops the rest."
    ),
    example: crate::doc_text!(
        r#"{"type": "logs-filter", "name": "errors", "predicate": {"type": "datadog-query", "query": "level:error"}}"#
    ),
    outputs: &[],
    predicate: PredicateUse::Required,
    config: <LogsFilter as Describe>::shape,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::check_predicate_present;

    #[test]
    fn a_predicate_is_required_under_either_name() {
        let mut problems = Vec::new();
        let vertex = serde_json::json!({"type": "logs-filter", "name": "f", "inverted": true});
        check_predicate_present(
            &OPERATION,
            vertex.as_object().unwrap(),
            "/vertices/1",
            &mut |p, m| problems.push((p, m)),
        );
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].0, "/vertices/1/query");
        let config: LogsFilter = serde_json::from_str(OPERATION.example).unwrap();
        assert!(config.predicate.is_some() && config.query.is_none());
    }

    #[test]
    fn wrong_fields_are_reported_with_their_pointer() {
        crate::ops::testing::each_field_rejects_a_wrong_value(&OPERATION);
    }
}
