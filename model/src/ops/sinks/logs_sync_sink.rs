//! `logs-sync-sink`: streams the events reaching it back to the caller of
//! `POST /v1/jobs/sync`, one event per `RUNNING` record.

use crate::config;
use crate::ops::{Describe, Operation, PredicateUse, Role};

config! {
    /// `logs-sync-sink`.
    pub struct LogsSyncSink {
        /// Integration that receives the logs; may be left out.
        "integration" [] => integration: Option<String>,
    }
}

/// `logs-sync-sink` in the catalog.
pub static OPERATION: Operation = Operation {
    type_name: "logs-sync-sink",
    role: Role::Sink,
    summary: crate::doc_text!(
        "Streams the events reaching it back to the caller of a synchronous job, one event per `RUNNING` record."
    ),
    example: crate::doc_text!(r#"{"type": "logs-sync-sink", "name": "out"}"#),
    outputs: &[],
    predicate: PredicateUse::None,
    config: <LogsSyncSink as Describe>::shape,
};

#[cfg(test)]
mod tests {
    #[test]
    fn wrong_fields_are_reported_with_their_pointer() {
        crate::ops::testing::each_field_rejects_a_wrong_value(&super::OPERATION);
    }
}
