//! `logs-iceberg-table-sink`: what reaches it is written to its dataset's table as the run
//! goes, and committed to the manifest in one transaction when the run finishes; a run that
//! ends any other way deletes what it wrote, and no query ever saw it (docs/lake.md, "Writing").

use jobgraph_core::JobGraph;
use jobgraph_core::pipeline::LogEvent;
use jobgraph_lake::{DataFile, TableWriter, WriteOptions};
use serde_json::{Value, json};

use super::{check_table, lake_of, named_dataset, table_spec};
use crate::error::ApiError;
use crate::ids::new_id;
use crate::state::AppState;
use crate::store::LakeFileRecord;

/// The table a sink writes when it names none.
pub(crate) const DEFAULT_TABLE: &str = "logs";

/// One sink's writer.
struct Writer {
    sink: String,
    organization: String,
    dataset_id: String,
    run_id: String,
    writer: TableWriter,
    rows: u64,
}

/// The writers of a run's `logs-iceberg-table-sink` vertices.
#[derive(Default)]
pub(crate) struct LakeSinks {
    writers: Vec<Writer>,
}

impl LakeSinks {
    /// A writer for each `logs-iceberg-table-sink` of `graph`, its dataset looked up in the
    /// caller's organization (a 400 naming the vertex when it is not there).
    pub(crate) async fn plan(
        state: &AppState,
        organization: &str,
        graph: &JobGraph,
    ) -> Result<LakeSinks, ApiError> {
        let mut writers = Vec::new();
        let run = new_id().map_err(|e| ApiError::Internal(format!("random: {e}")))?;
        for (i, vertex) in graph
            .vertices
            .iter()
            .enumerate()
            .filter(|(_, v)| v.vertex_type() == "logs-iceberg-table-sink")
        {
            let lake = lake_of(state)?;
            let dataset =
                named_dataset(state, organization, vertex.name(), vertex.fields()).await?;
            let table = vertex
                .fields()
                .get("table")
                .and_then(Value::as_str)
                .unwrap_or(DEFAULT_TABLE);
            // Graph validation refused such a table already (core's names rule); checked again
            // here because this is where it becomes a path.
            check_table(table, &format!("vertex {} (field `table`)", vertex.name()))?;
            let run_id = format!("{run}-{i}");
            let writer = lake.writer(
                table_spec(&dataset, table),
                &run_id,
                WriteOptions::default(),
            );
            writers.push(Writer {
                sink: vertex.name().to_owned(),
                organization: organization.to_owned(),
                dataset_id: dataset.id,
                run_id,
                writer,
                rows: 0,
            });
        }
        Ok(LakeSinks { writers })
    }

    /// Whether the run writes no lake table.
    pub(crate) fn is_empty(&self) -> bool {
        self.writers.is_empty()
    }

    /// Whether `sink` is written to the lake (its events are not streamed back).
    pub(crate) fn has(&self, sink: &str) -> bool {
        self.writers.iter().any(|w| w.sink == sink)
    }

    /// Writes `events`, which reached `sink`.
    pub(crate) async fn write(&mut self, sink: &str, events: &[LogEvent]) -> Result<(), String> {
        let Some(w) = self.writers.iter_mut().find(|w| w.sink == sink) else {
            return Ok(());
        };
        w.rows += events.len() as u64;
        w.writer
            .write(events)
            .await
            .map_err(|e| format!("writing sink {sink}: {e}"))
    }

    /// Finishes every writer and commits its files: `{sink: {datasetId, events, files}}` for
    /// the final record. A writer that fails deletes its files; those committed before stay.
    pub(crate) async fn commit(self, state: &AppState) -> Result<Value, String> {
        let mut written = serde_json::Map::new();
        for w in self.writers {
            let files = w
                .writer
                .finish()
                .await
                .map_err(|e| format!("writing sink {}: {e}", w.sink))?;
            let count = files.len();
            let records = files.iter().map(|f| record(f, &w.run_id)).collect();
            state
                .store
                .commit_lake_files(w.organization, w.dataset_id.clone(), w.run_id, records)
                .await
                .map_err(|e| format!("committing sink {}: {e}", w.sink))?;
            state.runs.committed.notify_waiters();
            written.insert(
                w.sink,
                json!({"datasetId": w.dataset_id, "events": w.rows, "files": count}),
            );
        }
        Ok(Value::Object(written))
    }

    /// Deletes what every writer wrote (the run did not finish).
    pub(crate) async fn abort(self) {
        for w in self.writers {
            if let Err(e) = w.writer.abort().await {
                tracing::warn!(sink = %w.sink, "could not delete the files of an unfinished run (garbage collection will): {e}");
            }
        }
    }
}

/// A written file as a manifest row.
pub(crate) fn record(file: &DataFile, run_id: &str) -> LakeFileRecord {
    let clamp = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    LakeFileRecord {
        table: file.table.clone(),
        path: file.path.clone(),
        partition_start_us: file.partition_start_us,
        min_time_us: file.min_time_us,
        max_time_us: file.max_time_us,
        rows: clamp(file.rows),
        bytes: clamp(file.bytes),
        row_groups: i64::from(file.row_groups),
        run_id: run_id.to_owned(),
        stats: serde_json::to_string(&file.stats).unwrap_or_else(|_| "{}".into()),
    }
}

/// A manifest row as the scanner's file (statistics that cannot be read back become empty
/// ones: the file is then scanned without file-level pruning on tags).
pub(crate) fn data_file(record: &LakeFileRecord) -> DataFile {
    let clamp = |n: i64| u64::try_from(n).unwrap_or(0);
    DataFile {
        table: record.table.clone(),
        path: record.path.clone(),
        partition_start_us: record.partition_start_us,
        min_time_us: record.min_time_us,
        max_time_us: record.max_time_us,
        rows: clamp(record.rows),
        bytes: clamp(record.bytes),
        row_groups: u32::try_from(record.row_groups).unwrap_or(u32::MAX),
        stats: serde_json::from_str(&record.stats).unwrap_or_default(),
    }
}
