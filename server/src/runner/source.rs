//! A run's lake source: a dataset's table read as a stream (the files of each commit, in the
//! order the commits were made, from where the run stopped) or, for a backfill, between two
//! times (the files committed when the run first started). Its position is exact to the
//! event: after a restart, the file being read is read again and the events already taken
//! are skipped.

use std::collections::VecDeque;
use std::sync::Arc;

use jobgraph_core::pipeline::{LogEvent, Query, vertex_predicate};
use jobgraph_lake::{Lake, ScanOrder, ScanRequest, Scanner, TagConstraints};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::lake::sink::data_file;
use crate::state::AppState;
use crate::store::LakeFileRecord;

/// Commits a stream looks at per read of the manifest.
const COMMITS_PER_READ: i64 = 256;

/// Where a source is: exact to the event.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Position {
    /// A stream: every commit up to this one is read.
    pub seq: i64,
    /// A backfill: the last commit of the files it reads (fixed at its first start).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub as_of: Option<i64>,
    /// A backfill: files of its list read whole.
    #[serde(default)]
    pub done: u64,
    /// The file being read (a stream: of commit `seq + 1`; the files before it in path
    /// order are read), and the events taken from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(default)]
    pub rows: u64,
}

/// What a read gives.
pub(crate) enum Read {
    /// Events, in order.
    Events(Vec<LogEvent>),
    /// Nothing new yet (a stream).
    Idle,
    /// Nothing left (a backfill).
    End,
}

enum Mode {
    Stream,
    Backfill { start_us: i64, end_us: i64 },
}

/// A file to read and the commit it came in (0 for a backfill).
struct Pending {
    seq: i64,
    file: LakeFileRecord,
}

/// A `logs-iceberg-table-source` (or `grepr-raw-log-source`) of a running job.
pub(crate) struct LakeFeed {
    /// The vertex.
    pub vertex: String,
    organization: String,
    dataset_id: String,
    table: String,
    lake: Arc<Lake>,
    mode: Mode,
    constraints: TagConstraints,
    batch_rows: usize,
    position: Position,
    queue: VecDeque<Pending>,
    /// Whether a backfill's list was read.
    listed: bool,
    /// A stream: the last commit whose files are queued.
    listed_upto: i64,
    current: Option<(Scanner, u64)>,
}

/// Reads `start`/`end` as µs since the epoch.
fn time_of(vertex: &str, field: &str, fields: &Map<String, Value>) -> Result<Option<i64>, String> {
    let Some(value) = fields.get(field) else {
        return Ok(None);
    };
    let text = value.as_str().unwrap_or_default();
    let at: jiff::Timestamp = text.parse().map_err(|e| {
        format!("vertex {vertex}: `{field}` {text:?} is not an ISO 8601 time with a zone (2026-11-25T10:00:00Z): {e}")
    })?;
    Ok(Some(at.as_microsecond()))
}

impl LakeFeed {
    /// The source `vertex` of a job of `organization`; `streaming`: read as a stream (the
    /// job's `processing` is `STREAMING`, or the vertex says `processing: STREAM`).
    pub(crate) async fn plan(
        state: &AppState,
        organization: &str,
        vertex: &str,
        fields: &Map<String, Value>,
        streaming: bool,
    ) -> Result<LakeFeed, String> {
        let lake = crate::lake::lake_of(state).map_err(|e| e.to_string())?;
        let (dataset, table) = crate::lake::dataset_table(state, organization, vertex, fields)
            .await
            .map_err(|e| e.to_string())?;
        let stream =
            streaming || fields.get("processing").and_then(Value::as_str) == Some("STREAM");
        let mode = if stream {
            Mode::Stream
        } else {
            let start = time_of(vertex, "start", fields)?.unwrap_or(i64::MIN);
            let end = time_of(vertex, "end", fields)?.unwrap_or(i64::MAX);
            if start >= end {
                return Err(format!(
                    "vertex {vertex}: `start` is not before `end`: the time range is empty"
                ));
            }
            Mode::Backfill {
                start_us: start,
                end_us: end,
            }
        };
        let constraints = match vertex_predicate(fields) {
            Some((_, predicate)) => Query::from_predicate(predicate)
                .map(|q| q.tag_constraints())
                .unwrap_or_default(),
            None => Vec::new(),
        };
        Ok(LakeFeed {
            vertex: vertex.to_owned(),
            organization: organization.to_owned(),
            dataset_id: dataset.id,
            table,
            lake,
            mode,
            constraints,
            batch_rows: state.config.lake.batch_rows.max(1),
            position: Position::default(),
            queue: VecDeque::new(),
            listed: false,
            listed_upto: 0,
            current: None,
        })
    }

    /// Starts where a checkpoint left it, or (`None`) from now: a stream from the dataset's
    /// last commit, a backfill from the files committed by now.
    pub(crate) async fn start_at(
        &mut self,
        state: &AppState,
        position: Option<Position>,
    ) -> Result<(), String> {
        self.position = match position {
            Some(p) => p,
            None => {
                let last = state
                    .store
                    .last_lake_commit(self.organization.clone(), self.dataset_id.clone())
                    .await
                    .map_err(|e| format!("vertex {}: {e}", self.vertex))?;
                match self.mode {
                    Mode::Stream => Position {
                        seq: last,
                        ..Position::default()
                    },
                    Mode::Backfill { .. } => Position {
                        as_of: Some(last),
                        ..Position::default()
                    },
                }
            }
        };
        self.queue.clear();
        self.current = None;
        self.listed = false;
        Ok(())
    }

    /// The position after the events read so far.
    pub(crate) fn position(&self) -> &Position {
        &self.position
    }

    /// Whether files are known and not read yet (the source is behind).
    pub(crate) fn behind(&self) -> bool {
        !self.queue.is_empty() || self.current.is_some()
    }

    /// Events, a batch of the lake's (at most `lake.batchRows`).
    pub(crate) async fn read(&mut self, state: &AppState) -> Result<Read, String> {
        loop {
            if let Some((scanner, _)) = &mut self.current {
                match scanner
                    .next_batch()
                    .await
                    .map_err(|e| format!("vertex {}: reading the lake: {e}", self.vertex))?
                {
                    Some(mut events) => {
                        let Some((_, skip)) = &mut self.current else {
                            unreachable!("read above")
                        };
                        if *skip > 0 {
                            let n = (*skip).min(events.len() as u64);
                            events.drain(..n as usize);
                            *skip -= n;
                            if events.is_empty() {
                                continue;
                            }
                        }
                        self.position.rows += events.len() as u64;
                        return Ok(Read::Events(events));
                    }
                    None => {
                        self.current = None;
                        self.file_done();
                        continue;
                    }
                }
            }
            if let Some(next) = self.queue.pop_front() {
                self.open(next).await?;
                continue;
            }
            match self.mode {
                Mode::Stream => {
                    if !self.list_commits(state).await? {
                        return Ok(Read::Idle);
                    }
                }
                Mode::Backfill { .. } => {
                    if self.listed {
                        return Ok(Read::End);
                    }
                    self.list_backfill(state).await?;
                }
            }
        }
    }

    /// Opens a file to read, skipping what the position says was taken from it.
    async fn open(&mut self, next: Pending) -> Result<(), String> {
        let skip = if self.position.file.as_deref() == Some(next.file.path.as_str()) {
            self.position.rows
        } else {
            self.position.file = Some(next.file.path.clone());
            self.position.rows = 0;
            0
        };
        let (start_us, end_us) = match self.mode {
            Mode::Stream => (i64::MIN, i64::MAX),
            Mode::Backfill { start_us, end_us } => (start_us, end_us),
        };
        let request = ScanRequest {
            files: vec![data_file(&next.file)],
            start_us,
            end_us,
            constraints: self.constraints.clone(),
            max_bytes: u64::MAX,
            batch_rows: self.batch_rows,
            order: ScanOrder::Files,
        };
        let scanner = self
            .lake
            .scan(request)
            .await
            .map_err(|e| format!("vertex {}: reading the lake: {e}", self.vertex))?;
        self.current = Some((scanner, skip));
        Ok(())
    }

    /// The file being read is read whole. A backfill counts it. A stream's position moves
    /// on only when the file's commit is read whole (the next file queued is of a later
    /// commit, or none is): until then it names the file and every event of it, which a
    /// restart reads again and skips.
    fn file_done(&mut self) {
        match self.mode {
            Mode::Backfill { .. } => {
                self.position.done += 1;
                self.position.file = None;
                self.position.rows = 0;
            }
            Mode::Stream => {
                let commit = self.position.seq + 1;
                let next = self.queue.front().map(|p| p.seq);
                if next != Some(commit) {
                    self.position.seq = next.map_or(self.listed_upto, |s| s - 1);
                    self.position.file = None;
                    self.position.rows = 0;
                }
            }
        }
    }

    /// Queues the files of the commits after the position: `false` when there are none.
    async fn list_commits(&mut self, state: &AppState) -> Result<bool, String> {
        let error = |e: crate::store::StoreError| format!("vertex {}: {e}", self.vertex);
        let last = state
            .store
            .last_lake_commit(self.organization.clone(), self.dataset_id.clone())
            .await
            .map_err(error)?;
        if last <= self.position.seq {
            return Ok(false);
        }
        let upto = last.min(self.position.seq + COMMITS_PER_READ);
        let files = state
            .store
            .lake_files_committed_after(
                self.organization.clone(),
                self.dataset_id.clone(),
                self.table.clone(),
                self.position.seq,
                upto,
            )
            .await
            .map_err(error)?;
        self.listed_upto = upto;
        let Some(first) = files.first().map(|(seq, _)| *seq) else {
            // No file of this table in those commits.
            self.position.seq = upto;
            self.position.file = None;
            self.position.rows = 0;
            return Ok(true);
        };
        // Commits before the first with files of this table are read.
        if first - 1 > self.position.seq {
            self.position.seq = first - 1;
            self.position.file = None;
            self.position.rows = 0;
        }
        let resume = self.position.file.clone();
        for (seq, file) in files {
            // In the commit being read, the files before the one being read are read.
            if seq == first
                && let Some(at) = &resume
                && file.path.as_bytes() < at.as_bytes()
            {
                continue;
            }
            self.queue.push_back(Pending { seq, file });
        }
        Ok(true)
    }

    /// Lists a backfill's files once, skipping those its position read whole.
    async fn list_backfill(&mut self, state: &AppState) -> Result<(), String> {
        let Mode::Backfill { start_us, end_us } = self.mode else {
            return Ok(());
        };
        let files = state
            .store
            .lake_files_as_of(
                self.organization.clone(),
                self.dataset_id.clone(),
                self.table.clone(),
                start_us,
                end_us,
                self.position.as_of.unwrap_or(i64::MAX),
            )
            .await
            .map_err(|e| format!("vertex {}: {e}", self.vertex))?;
        self.listed = true;
        for file in files.into_iter().skip(self.position.done as usize) {
            self.queue.push_back(Pending { seq: 0, file });
        }
        Ok(())
    }
}
