//! `grepr-raw-log-source`: the public client's query source, the same read as
//! [`logs-iceberg-table-source`](super::logs_iceberg_table_source) with the same fields.

use crate::ops::{Describe, Operation, PredicateUse, Role};

use super::logs_iceberg_table_source::LogsIcebergTableSource;

/// `grepr-raw-log-source` in the catalog.
pub static OPERATION: Operation = Operation {
    type_name: "grepr-raw-log-source",
    role: Role::Source,
    summary: crate::doc_text!(
        "Reads a dataset's raw logs, as `logs-iceberg-table-source` does (the public client's default query engine)."
    ),
    example: crate::doc_text!(
        r#"{"type": "grepr-raw-log-source", "name": "raw", "datasetId": "ds-1", "start": "2026-11-01T00:00:00Z", "end": "2026-11-02T00:00:00Z", "query": {"type": "datadog-query", "query": "level:error"}, "limit": 100, "sortOrder": "DESCENDING"}"#
    ),
    outputs: &[],
    predicate: PredicateUse::Optional,
    config: <LogsIcebergTableSource as Describe>::shape,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrong_fields_are_reported_with_their_pointer() {
        crate::ops::testing::each_field_rejects_a_wrong_value(&OPERATION);
    }
}
