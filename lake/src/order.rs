//! Sorted scans ([`crate::ScanOrder::Ascending`], [`crate::ScanOrder::Descending`]): each
//! file is sorted by `event_time` (the writer sorts it), so a sorted scan is a merge of the
//! files whose time ranges overlap, one [`Cursor`] per file.
//!
//! Newest first reads a file's row groups last to first; Parquet hands a row group's rows out
//! first to last, so a cursor holds one row group's Arrow batches and decodes them from the
//! last, each one reversed. A batch never spans two row groups (the reader reads row group by
//! row group); the row counts of the footer say where each ends.

use std::collections::VecDeque;
use std::sync::Arc;

use arrow_array::RecordBatch;
use futures_util::StreamExt;
use jobgraph_model::LogEvent;
use parquet::arrow::async_reader::ParquetRecordBatchStream;

use crate::LakeError;
use crate::constraints::TagConstraints;
use crate::reader::{Budget, CountingReader, failure};
use crate::schema::decode_timed;

/// A file opened for reading: its surviving row groups, in the order they are read.
pub(crate) struct Opened {
    pub(crate) path: String,
    pub(crate) stream: ParquetRecordBatchStream<CountingReader>,
    /// Rows of each row group read, in reading order.
    pub(crate) group_rows: Vec<usize>,
}

/// What every cursor of a scan filters on, and the budget its reads count against.
pub(crate) struct Window {
    pub(crate) start_us: i64,
    pub(crate) end_us: i64,
    pub(crate) constraints: TagConstraints,
    pub(crate) budget: Arc<Budget>,
}

/// One file's events in the scan's order.
pub(crate) struct Cursor {
    path: String,
    stream: ParquetRecordBatchStream<CountingReader>,
    descending: bool,
    /// Rows of the row groups not read yet, in reading order.
    group_rows: VecDeque<usize>,
    /// Newest first: the current row group's batches not decoded yet (the last is next).
    pending: Vec<RecordBatch>,
    /// Decoded events with their times, in the scan's order.
    ready: VecDeque<(i64, LogEvent)>,
    window: Window,
    finished: bool,
}

impl Cursor {
    pub(crate) fn new(opened: Opened, window: Window, descending: bool) -> Cursor {
        Cursor {
            path: opened.path,
            stream: opened.stream,
            descending,
            group_rows: opened.group_rows.into(),
            pending: Vec::new(),
            ready: VecDeque::new(),
            window,
            finished: false,
        }
    }

    /// The time of the next event, reading as needed; `None` when the file has no more.
    async fn head(&mut self) -> Result<Option<i64>, LakeError> {
        while self.ready.is_empty() && !self.finished {
            self.fill().await?;
        }
        Ok(self.ready.front().map(|(t, _)| *t))
    }

    /// Decodes more events (possibly none: a batch can hold no row of the window).
    async fn fill(&mut self) -> Result<(), LakeError> {
        if self.descending {
            if let Some(batch) = self.pending.pop() {
                let mut events = self.decode(&batch)?;
                events.reverse();
                self.ready.extend(events);
                return Ok(());
            }
            let Some(mut rows) = self.group_rows.pop_front() else {
                self.finished = true;
                return Ok(());
            };
            while rows > 0 {
                let Some(batch) = self.next_record_batch().await? else {
                    break;
                };
                rows = rows.saturating_sub(batch.num_rows());
                self.pending.push(batch);
            }
            return Ok(());
        }
        match self.next_record_batch().await? {
            Some(batch) => {
                let events = self.decode(&batch)?;
                self.ready.extend(events);
            }
            None => self.finished = true,
        }
        Ok(())
    }

    async fn next_record_batch(&mut self) -> Result<Option<RecordBatch>, LakeError> {
        match self.stream.next().await {
            Some(Ok(batch)) => Ok(Some(batch)),
            Some(Err(e)) => Err(failure(&self.window.budget, self.path.clone(), e)),
            None => Ok(None),
        }
    }

    fn decode(&self, batch: &RecordBatch) -> Result<Vec<(i64, LogEvent)>, LakeError> {
        let w = &self.window;
        decode_timed(batch, w.start_us, w.end_us, &w.constraints).map_err(|problem| {
            LakeError::Event {
                path: self.path.clone(),
                problem,
            }
        })
    }
}

/// The cursors of one group of files, merged by time (ties: the earlier file of the group).
pub(crate) struct Merge {
    cursors: Vec<Cursor>,
    descending: bool,
}

impl Merge {
    pub(crate) fn new(cursors: Vec<Cursor>, descending: bool) -> Merge {
        Merge {
            cursors,
            descending,
        }
    }

    /// Up to `rows` events in order; empty when every file is done.
    pub(crate) async fn next_batch(&mut self, rows: usize) -> Result<Vec<LogEvent>, LakeError> {
        let mut out = Vec::new();
        while out.len() < rows {
            let mut best: Option<(usize, i64)> = None;
            let mut index = 0;
            while index < self.cursors.len() {
                let Some(time) = self.cursors[index].head().await? else {
                    self.cursors.remove(index);
                    continue;
                };
                let better = match best {
                    None => true,
                    Some((_, t)) if self.descending => time > t,
                    Some((_, t)) => time < t,
                };
                if better {
                    best = Some((index, time));
                }
                index += 1;
            }
            let Some((index, _)) = best else { break };
            if let Some((_, event)) = self.cursors[index].ready.pop_front() {
                out.push(event);
            }
        }
        Ok(out)
    }
}
