//! `logs-iceberg-table-sink`: writes the events reaching it into a dataset of the data lake,
//! committed when the run finishes (`docs/lake.md`).

use crate::config;
use crate::ops::{Describe, Operation, PredicateUse, Role};

config! {
    /// `logs-iceberg-table-sink`: writes the events reaching it into a dataset's table.
    pub struct LogsIcebergTableSink {
        /// Dataset written, by identifier.
        "datasetId" [] => dataset_id: Option<String>,
        /// Dataset written, by name (when `datasetId` is absent).
        "datasetName" [] => dataset_name: Option<String>,
        /// Table written; `logs` when absent.
        "table" [] => table: Option<String>,
    }
}

/// `logs-iceberg-table-sink` in the catalog.
pub static OPERATION: Operation = Operation {
    type_name: "logs-iceberg-table-sink",
    role: Role::Sink,
    summary: crate::doc_text!(
        "Appends the events reaching it to a dataset of the data lake (Parquet files), committed when the run finishes. `datasetId` (or `datasetName`) is required."
    ),
    example: crate::doc_text!(
        r#"{"type": "logs-iceberg-table-sink", "name": "lake", "datasetId": "ds-1"}"#
    ),
    outputs: &[],
    predicate: PredicateUse::None,
    config: <LogsIcebergTableSink as Describe>::shape,
};

#[cfg(test)]
mod tests {
    #[test]
    fn wrong_fields_are_reported_with_their_pointer() {
        crate::ops::testing::each_field_rejects_a_wrong_value(&super::OPERATION);
    }
}
