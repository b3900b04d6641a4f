//! A running job's `logs-iceberg-table-sink` vertices: what reaches one is written to its
//! dataset's table as it comes (files of the checkpoint interval), and the files are committed
//! with the checkpoint, in its transaction. Files written after the last checkpoint and never
//! committed (a crash, a lost lease) are garbage the lake's collection deletes.

use std::sync::Arc;

use jobgraph_core::pipeline::LogEvent;
use jobgraph_lake::{Lake, TableSpec, TableWriter, WriteOptions};
use serde_json::{Map, Value};

use crate::lake::sink::record;
use crate::state::AppState;
use crate::store::SinkCommit;

struct LakeSink {
    vertex: String,
    dataset_id: String,
    spec: TableSpec,
    writer: Option<(String, TableWriter)>,
}

/// A running job's writer buffers less than a one-off run's (many run at once; a checkpoint
/// writes its files every few seconds anyway): 32 MiB of events, in files of at most that.
const STREAM_WRITES: WriteOptions = WriteOptions {
    row_group_rows: 131_072,
    max_file_bytes: 32 << 20,
    max_open_partitions: 16,
    max_buffered_bytes: 32 << 20,
};

/// Every lake sink of a run.
pub(crate) struct LakeSinks {
    lake: Arc<Lake>,
    /// Makes each interval's run ids unique to this owner (a replica that lost its lease and
    /// goes on writing never writes a path another one commits).
    prefix: String,
    sinks: Vec<LakeSink>,
}

impl LakeSinks {
    /// The writers of `vertices` (name, fields) for a job of `organization`; `prefix` names
    /// the run and its owner.
    pub(crate) async fn plan(
        state: &AppState,
        organization: &str,
        vertices: &[(String, Map<String, Value>)],
        prefix: String,
    ) -> Result<LakeSinks, String> {
        let lake = crate::lake::lake_of(state).map_err(|e| e.to_string())?;
        let mut sinks = Vec::new();
        for (vertex, fields) in vertices {
            let (dataset, table) = crate::lake::dataset_table(state, organization, vertex, fields)
                .await
                .map_err(|e| e.to_string())?;
            sinks.push(LakeSink {
                vertex: vertex.clone(),
                dataset_id: dataset.id.clone(),
                spec: crate::lake::table_spec(&dataset, &table),
                writer: None,
            });
        }
        Ok(LakeSinks {
            lake,
            prefix,
            sinks,
        })
    }

    /// Whether `vertex` is one of them.
    pub(crate) fn has(&self, vertex: &str) -> bool {
        self.sinks.iter().any(|s| s.vertex == vertex)
    }

    /// Writes `events`, which reached `vertex`, in checkpoint interval `interval`.
    pub(crate) async fn write(
        &mut self,
        vertex: &str,
        interval: i64,
        events: &[LogEvent],
    ) -> Result<(), String> {
        let Some((i, sink)) = self
            .sinks
            .iter_mut()
            .enumerate()
            .find(|(_, s)| s.vertex == vertex)
        else {
            return Ok(());
        };
        let (_, writer) = sink.writer.get_or_insert_with(|| {
            let run_id = format!("{}-c{interval}-{i}", self.prefix);
            let writer = self.lake.writer(sink.spec.clone(), &run_id, STREAM_WRITES);
            (run_id, writer)
        });
        writer
            .write(events)
            .await
            .map_err(|e| format!("vertex {vertex}: writing the lake: {e}"))
    }

    /// Finishes the interval's files, to commit with the checkpoint.
    pub(crate) async fn finish(&mut self) -> Result<Vec<SinkCommit>, String> {
        let mut commits = Vec::new();
        for sink in &mut self.sinks {
            let Some((run_id, writer)) = sink.writer.take() else {
                continue;
            };
            let files = writer
                .finish()
                .await
                .map_err(|e| format!("vertex {}: writing the lake: {e}", sink.vertex))?;
            if files.is_empty() {
                continue;
            }
            commits.push(SinkCommit {
                dataset_id: sink.dataset_id.clone(),
                files: files.iter().map(|f| record(f, &run_id)).collect(),
                run_id,
            });
        }
        Ok(commits)
    }

    /// Deletes what the interval wrote (its checkpoint will not be written).
    pub(crate) async fn abort(&mut self) {
        for sink in &mut self.sinks {
            if let Some((_, writer)) = sink.writer.take()
                && let Err(e) = writer.abort().await
            {
                tracing::warn!(sink = %sink.vertex, "could not delete files never committed (garbage collection will): {e}");
            }
        }
    }
}
