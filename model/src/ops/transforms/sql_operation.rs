//! `sql-operation`: Runs an ordered list of Flink SQL statements: each input port is a table named
//! by a key of `inputs` with the given row type; `sql_view` statements define intermediate tables;
//! each `sql_output` becomes an output port carrying its rows. Stateful operations use
//! globalStateTtl and watermarkDelay.
//!
//! Fields as the public service documents them (grepr/cli
//! src/main/typescript/openapi/openApiTypes.ts (newest stored version, 802,951 chars):
//! components.schemas.SqlOperation; enum values at end of file, SqlExecutable, SqlViewStatement,
//! SqlOutputStatement, SqlIoStatement; enum SqlOperationInputs; grepr/cli
//! docs-index-source/app/transforms/sql-transform/page.mdx; grepr/cli
//! skills/build-sql-transform/reference.md and SKILL.md).
//!
//! Decisions where the sources are silent or disagree:
//! - Docs call the view flag `shouldMaterialize`; the schema and the SQL skill say the real field
//!   is `materialized`. Accept both, store `materialized`.
//! - Edge binding: an edge into the default port `input` binds to the only input table when
//!   `inputs` has exactly one key; if `inputs` is empty, assume {"logs": "LOG_EVENT"}. An edge from
//!   the default port `output` binds to the only sql_output. Otherwise port names must match
//!   table/output names.
//! - Validation (from SQL skill): statements non-empty; >=1 sql_output; outputName unique and
//!   matching the underscore regex; view tableName unique and matching its regex; watermarkDelay <=
//!   PT10M; no DDL.
//! - The legacy vertex type `sql-transform` with a single `sqlQuery` (job-creation-guide, older
//!   skill) is not in the schema — do not support it (or translate it into one sql_output with
//!   input table `logs`).

use crate::ops::{Describe, Operation, PredicateUse, Role};
use crate::{config, tagged, wire_enum};
use indexmap::IndexMap;

config! {
    /// Creates a named intermediate table usable by later statements.
    pub struct SqlView {
        /// Unique among views.
        "tableName" [required] => table_name: String,
        /// Flink SQL SELECT over inputs, earlier views and dataset tables.
        "sqlQuery" [required] => sql_query: String,
        /// Force an execution boundary so the view is computed once.
        "materialized" [default("false")] => materialized: Option<bool>,
        /// Event-time column for re-establishing watermarks after materialization.
        "eventTimeAttribute" [] => event_time_attribute: Option<String>,
    }
}

wire_enum! {
    /// Row type of the stream.
    pub enum OutputType { Variant = "VARIANT", LogEvent = "LOG_EVENT", CompleteSpan = "COMPLETE_SPAN", MetricData = "METRIC_DATA", WideMetricData = "WIDE_METRIC_DATA" }
}

config! {
    /// Produces a named output stream (an output port of the vertex).
    pub struct SqlOutput {
        /// Unique among outputs; must contain an underscore (server-side regex).
        "outputName" [required] => output_name: String,
        /// Row type of the stream.
        "outputType" [required] => output_type: OutputType,
        /// Flink SQL SELECT.
        "sqlQuery" [required] => sql_query: String,
        /// As for views.
        "materialized" [default("false")] => materialized: Option<bool>,
        /// Event-time column.
        "eventTimeAttribute" [] => event_time_attribute: Option<String>,
    }
}

config! {
    /// Side-effect statement (INSERT INTO ...); no author-facing target; DDL blocked.
    pub struct SqlIo {
        /// Statement.
        "sqlQuery" [required] => sql_query: String,
        /// Not documented publicly.
        "materialized" [] => materialized: Option<bool>,
        /// Not documented publicly.
        "eventTimeAttribute" [] => event_time_attribute: Option<String>,
    }
}

tagged! {
    /// statementsItem
    pub enum StatementsItem ("a statementsItem") {
        SqlView = "sql_view" (SqlView),
        SqlOutput = "sql_output" (SqlOutput),
        SqlIo = "sql_io" (SqlIo),
    }
}

wire_enum! {
    /// Values of `inputsValue`.
    pub enum InputsValue { Variant = "VARIANT", LogEvent = "LOG_EVENT", CompleteSpan = "COMPLETE_SPAN", MetricData = "METRIC_DATA", WideMetricData = "WIDE_METRIC_DATA" }
}

config! {
    /// The configuration of a `sql-operation` vertex.
    pub struct SqlOperation {
        /// Ordered statements; non-empty; at least one sql_output.
        "statements" [required, min(1.0)] => statements: Vec<StatementsItem>,
        /// Input table name -> row type. Schema default {}; the SQL skill and examples use {"logs":
        /// "LOG_EVENT"}.
        "inputs" [default("{}")] => inputs: Option<IndexMap<String, InputsValue>>,
        /// Dataset ids whose tables may be queried (each in a namespace named after the dataset).
        /// The skill says it throws at execution today — leave \[\].
        "availableDatasets" [default("[]")] => available_datasets: Option<Vec<String>>,
        /// Idle-state TTL for aggregations/joins. ISO-8601 duration string (e.g. PT2M, PT120S,
        /// PT20.345S).
        "globalStateTtl" [format("duration"), default("\"PT2M\"")] => global_state_ttl: Option<String>,
        /// Allowed lateness for event-time operations. ISO-8601 duration string (e.g. PT2M, PT120S,
        /// PT20.345S); max PT10M; sub-second precision dropped.
        "watermarkDelay" [format("duration"), default("\"PT5S\"")] => watermark_delay: Option<String>,
    }
}

/// `sql-operation` in the catalog.
pub static OPERATION: Operation = Operation {
    type_name: "sql-operation",
    role: Role::Transform,
    summary: crate::doc_text!(
        "Runs an ordered list of Flink SQL statements: each input port is a table named by a key of `inputs` with the given row type; `sql_view` statements define intermediate tables; each `sql_output` becomes an output port carrying its rows. Stateful operations use globalStateTtl and watermarkDelay."
    ),
    example: crate::doc_text!(
        r#"{"type": "sql-operation", "name": "sql", "statements": [{"type": "sql_output", "outputName": "errors_out", "outputType": "LOG_EVENT", "sqlQuery": "SELECT * FROM logs WHERE severity >= 17"}], "inputs": {"logs": "LOG_EVENT"}}"#
    ),
    outputs: &[],
    predicate: PredicateUse::None,
    config: <SqlOperation as Describe>::shape,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_reads_as_the_config() {
        crate::ops::testing::example_reads_as_the_config::<SqlOperation>(&OPERATION);
    }

    #[test]
    fn wrong_fields_are_reported_with_their_pointer() {
        crate::ops::testing::each_field_rejects_a_wrong_value(&OPERATION);
    }
}
