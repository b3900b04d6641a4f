//! A synchronous run that reads a dataset: the `logs-iceberg-table-source` that names one
//! (`datasetId` or `datasetName`, `start`, `end`, `query`, `limit`, as the public client's
//! `query` sends it) becomes a scan of the files the manifest lists for the time range, pruned
//! by time and by the query's tag equalities, its events handed to the pipeline in batches
//! (docs/lake.md, "Queries").

use std::sync::{Arc, Mutex};

use jobgraph_core::JobGraph;
use jobgraph_core::pipeline::{Query, RunInput, vertex_predicate};
use jobgraph_lake::{LakeError, ScanOrder, ScanRequest, ScanStats};
use serde_json::Value;
use tokio::sync::mpsc;

use super::sink::{DEFAULT_TABLE, data_file};
use super::{lake_of, named_dataset};
use crate::error::ApiError;
use crate::state::AppState;
use crate::sync_stream::Input;

/// A planned scan of one dataset.
pub(crate) struct LakeSource {
    lake: Arc<jobgraph_lake::Lake>,
    request: ScanRequest,
    /// Events the run's sinks receive at most (the vertex's `limit`).
    pub(crate) limit: Option<u64>,
    /// What the scan did so far, for the final record.
    pub(crate) stats: Arc<Mutex<ScanStats>>,
}

/// Reads `start`/`end` of `vertex` as µs since the epoch.
fn time_of(vertex: &str, field: &str, value: Option<&Value>) -> Result<Option<i64>, ApiError> {
    let Some(value) = value else { return Ok(None) };
    let text = value.as_str().unwrap_or_default();
    let at: jiff::Timestamp = text.parse().map_err(|e| {
        ApiError::BadRequest(format!(
            "vertex {vertex}: `{field}` {text:?} is not an ISO 8601 time with a zone (2026-11-25T10:00:00Z): {e}"
        ))
    })?;
    Ok(Some(at.as_microsecond()))
}

/// The scan order a `sortOrder` asks for: `UNSORTED` (the default, file order), `ASCENDING`
/// (oldest first) or `DESCENDING` (newest first), any case; `ASC` and `DESC` too.
fn sort_order(vertex: &str, value: Option<&Value>) -> Result<ScanOrder, ApiError> {
    let Some(value) = value else {
        return Ok(ScanOrder::Files);
    };
    let text = value.as_str().unwrap_or_default();
    match text.to_ascii_uppercase().as_str() {
        "UNSORTED" => Ok(ScanOrder::Files),
        "ASCENDING" | "ASC" => Ok(ScanOrder::Ascending),
        "DESCENDING" | "DESC" => Ok(ScanOrder::Descending),
        _ => Err(ApiError::BadRequest(format!(
            "vertex {vertex}: `sortOrder` {text:?} is not UNSORTED (file order, the fastest), ASCENDING (oldest first) or DESCENDING (newest first)"
        ))),
    }
}

impl LakeSource {
    /// The dataset source of `graph`, if it has one: its files listed (the run's snapshot of
    /// the manifest) and its scan planned. A 400 when the graph reads a table that is no
    /// dataset, several datasets, or a dataset beside inline events.
    pub(crate) async fn plan(
        state: &AppState,
        organization: &str,
        graph: &JobGraph,
    ) -> Result<Option<LakeSource>, ApiError> {
        let sources: Vec<_> = graph
            .vertices
            .iter()
            .filter(|v| {
                matches!(
                    v.vertex_type(),
                    "logs-iceberg-table-source" | "grepr-raw-log-source"
                )
            })
            .collect();
        let Some(vertex) = sources.first() else {
            return Ok(None);
        };
        let fields = vertex.fields();
        let name = vertex.name();
        if !fields.contains_key("datasetId") && !fields.contains_key("datasetName") {
            return Err(ApiError::BadRequest(format!(
                "vertex {name} reads table {:?} but names no dataset: give `datasetId` or `datasetName` (its table is `table`, default `logs`), or put the events inline in a logs-values-source (`values`)",
                fields
                    .get("table")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
            )));
        }
        if sources.len() > 1 {
            return Err(ApiError::BadRequest(format!(
                "vertices {} and {} both read the lake: a synchronous run reads one dataset source",
                name,
                sources[1].name()
            )));
        }
        if let Some(values) = graph
            .vertices
            .iter()
            .find(|v| v.vertex_type() == "logs-values-source")
        {
            return Err(ApiError::BadRequest(format!(
                "vertex {} (inline events) and vertex {name} (a dataset) in one run: a run reads a dataset or inline events, not both",
                values.name()
            )));
        }
        let lake = lake_of(state)?;
        let dataset = named_dataset(state, organization, name, fields).await?;
        let start = time_of(name, "start", fields.get("start"))?;
        let end = time_of(name, "end", fields.get("end"))?;
        if let (Some(start), Some(end)) = (start, end)
            && start >= end
        {
            return Err(ApiError::BadRequest(format!(
                "vertex {name}: `start` is not before `end`: the time range is empty"
            )));
        }
        let table = fields
            .get("table")
            .and_then(Value::as_str)
            .unwrap_or(DEFAULT_TABLE);
        let constraints = match vertex_predicate(fields) {
            // The pipeline compiled the same predicate already: an error here cannot happen,
            // and would only lose pruning, never events.
            Some((_, predicate)) => Query::from_predicate(predicate)
                .map(|q| q.tag_constraints())
                .unwrap_or_default(),
            None => Vec::new(),
        };
        let order = sort_order(name, fields.get("sortOrder"))?;
        let files = state
            .store
            .lake_files(
                organization.to_owned(),
                dataset.id.clone(),
                Some(table.to_owned()),
                start,
                end,
            )
            .await?;
        let config = &state.config.lake;
        Ok(Some(LakeSource {
            lake,
            request: ScanRequest {
                files: files.iter().map(data_file).collect(),
                start_us: start.unwrap_or(i64::MIN),
                end_us: end.unwrap_or(i64::MAX),
                constraints,
                max_bytes: config.scan_max_bytes,
                batch_rows: config.batch_rows.max(1),
                order,
            },
            limit: fields.get("limit").and_then(Value::as_u64),
            stats: Arc::default(),
        }))
    }

    /// Scans in a task of its own, each batch handed to the run; ends with `SCANNED_MAX` when
    /// the next fetch would pass the budget, `FAILED` on any other error. Stops when the run
    /// stops listening.
    pub(crate) fn start(self, inputs: mpsc::Sender<Input>) {
        let LakeSource {
            lake,
            request,
            stats,
            ..
        } = self;
        tokio::spawn(async move {
            let mut scanner = match lake.scan(request).await {
                Ok(scanner) => scanner,
                Err(e) => {
                    let _ = inputs.send(ending(e)).await;
                    return;
                }
            };
            loop {
                let batch = scanner.next_batch().await;
                if let Ok(mut s) = stats.lock() {
                    *s = scanner.stats();
                }
                let input = match batch {
                    Ok(Some(events)) => Input::Run(RunInput {
                        events,
                        ..RunInput::default()
                    }),
                    Ok(None) => return,
                    Err(e) => ending(e),
                };
                let last = matches!(input, Input::End(..));
                if inputs.send(input).await.is_err() || last {
                    return;
                }
            }
        });
    }
}

/// The final record of a scan that failed.
fn ending(error: LakeError) -> Input {
    match error {
        LakeError::ScanBudget { scanned, budget } => Input::End(
            "SCANNED_MAX",
            format!(
                "Hit data scan limit: the next read would pass the budget of {budget} bytes ({scanned} read); narrow the time range or the query's tags (lake.scanMaxBytes)"
            ),
        ),
        other => Input::End("FAILED", format!("reading the lake: {other}")),
    }
}
