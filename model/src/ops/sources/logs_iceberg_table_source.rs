//! `logs-iceberg-table-source`: a bounded read of a dataset of the data lake (or a `table`):
//! the events between `start` and `end` that its predicate matches, at most `limit`, in
//! `sortOrder`. The public client's queries send `datasetId`, `start`, `end`, `query` and
//! `limit`; `jobgraph` also reads a dataset by `datasetName`, or a `table`.
//!
//! Decisions: `start`, `end` and the predicate are optional here (a whole dataset, every
//! event), where the public schema requires them; `table`, `integrationId`, `processing` and
//! `reductionInterval` appear in the public examples and are accepted. Validation requires one
//! of `table`, `datasetId` and `datasetName`.

use serde_json::{Map, Value};

use crate::config;
use crate::ops::{Describe, Operation, PredicateUse, Role};

config! {
    /// `logs-iceberg-table-source` (and `grepr-raw-log-source`, the same fields): a table, or
    /// a dataset of the data lake. At least one of `table`, `datasetId` and `datasetName` is
    /// present (validation says so).
    pub struct LogsIcebergTableSource {
        /// Table to read (`logs` when a dataset is named without one).
        "table" [] => table: Option<String>,
        /// Dataset to read, by identifier.
        "datasetId" [] => dataset_id: Option<String>,
        /// Dataset to read, by name (when `datasetId` is absent).
        "datasetName" [] => dataset_name: Option<String>,
        /// Start of the time range, ISO 8601, inclusive.
        "start" [format("date-time")] => start: Option<String>,
        /// End of the time range, ISO 8601, exclusive.
        "end" [format("date-time")] => end: Option<String>,
        /// Events read at most.
        "limit" [min(1.0), default("2500")] => limit: Option<u64>,
        /// Events skipped before the first one read.
        "offset" [default("0")] => offset: Option<u64>,
        /// Order of the events read: `ASCENDING`, `DESCENDING` or `UNSORTED` (the default);
        /// `ASC` and `DESC` are accepted.
        "sortOrder" [] => sort_order: Option<String>,
        /// Variables substituted into the query text (`{"__service": "x"}`).
        "variables" [] => variables: Option<Map<String, Value>>,
        /// Processing mode, `STREAM` in the examples (a continuous read).
        "processing" [] => processing: Option<String>,
        /// Optional row filter (the interface document's name).
        "query" [predicate] => query: Option<Value>,
        /// Optional row filter (the public service's name; wins over `query`).
        "predicate" [predicate] => predicate: Option<Value>,
        /// In the public examples; not used.
        "integrationId" [] => integration_id: Option<String>,
        /// In the public examples; not used.
        "reductionInterval" [] => reduction_interval: Option<String>,
    }
}

/// `logs-iceberg-table-source` in the catalog.
pub static OPERATION: Operation = Operation {
    type_name: "logs-iceberg-table-source",
    role: Role::Source,
    summary: crate::doc_text!(
        "Reads a dataset of the data lake (or a `table`): the events between `start` and `end` that its predicate matches, at most `limit`, in `sortOrder`."
    ),
    example: crate::doc_text!(
        r#"{"type": "logs-iceberg-table-source", "name": "lake", "datasetId": "ds-1", "start": "2026-11-01T00:00:00Z", "end": "2026-11-02T00:00:00Z", "query": {"type": "datadog-query", "query": "level:error"}, "limit": 100}"#
    ),
    outputs: &[],
    predicate: PredicateUse::Optional,
    config: <LogsIcebergTableSource as Describe>::shape,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_reads_as_the_config() {
        let config: LogsIcebergTableSource = serde_json::from_str(OPERATION.example).unwrap();
        assert_eq!(config.dataset_id.as_deref(), Some("ds-1"));
        assert_eq!(config.limit, Some(100));
        assert!(config.table.is_none() && config.predicate.is_none() && config.query.is_some());
    }

    #[test]
    fn wrong_fields_are_reported_with_their_pointer() {
        crate::ops::testing::each_field_rejects_a_wrong_value(&OPERATION);
    }
}
