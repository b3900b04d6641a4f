//! Scanning committed files: pruning by time and tags, reading surviving row groups.

use std::collections::VecDeque;
use std::sync::Arc;

use futures_util::StreamExt;
use jobgraph_model::LogEvent;
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ArrowReaderOptions};
use parquet::arrow::async_reader::{ParquetRecordBatchStream, ParquetRecordBatchStreamBuilder};
use parquet::errors::ParquetError;
use parquet::file::metadata::RowGroupMetaData;
use parquet::file::statistics::Statistics;

use crate::constraints::TagConstraints;
use crate::order::{Cursor, Merge, Opened, Window};
use crate::reader::{Budget, CountingReader, failure};
use crate::schema::{BASE_COLUMNS, decode, promoted_column};
use crate::{DataFile, Lake, LakeError};

/// What to scan.
#[derive(Clone, Debug)]
pub struct ScanRequest {
    /// The committed files to consider (from the manifest), scanned in this order.
    pub files: Vec<DataFile>,
    /// The first `event_time` wanted (microseconds, inclusive).
    pub start_us: i64,
    /// The end of the window (microseconds, exclusive).
    pub end_us: i64,
    /// Tag constraints: they prune files and row groups (promoted tags), and a row whose tags
    /// fail them is skipped before it becomes an event (any tag). Conservative for a query
    /// (`jobgraph_core::pipeline::Query::tag_constraints`): the caller
    /// still applies the query to the events.
    pub constraints: TagConstraints,
    /// Bytes the scan may fetch (footers, bloom filters and column chunks all count).
    pub max_bytes: u64,
    /// Rows decoded at a time (a batch of events holds at most this many).
    pub batch_rows: usize,
    /// The order events come in.
    pub order: ScanOrder,
}

/// The order of a scan's events.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ScanOrder {
    /// File by file, in the request's order, each file in time order: the cheapest (the
    /// public client's `UNSORTED`).
    #[default]
    Files,
    /// Oldest first: files whose time ranges overlap are merged by `event_time`.
    Ascending,
    /// Newest first: the same merge, from the end; a file's row groups are read last to first,
    /// each held as Arrow batches (at most [`crate::WriteOptions::row_group_rows`] rows) while
    /// its events are handed out backwards. Memory: one row group per file of the group of
    /// overlapping files being merged.
    Descending,
}

/// Counters of a scan (the `scan` record of a query's answer).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScanStats {
    /// Bytes fetched from storage so far.
    pub bytes_scanned: u64,
    /// Total size of the files whose time range overlaps the window.
    pub bytes_in_range: u64,
    /// Files in the request.
    pub files: u64,
    /// Files whose footer was read.
    pub files_scanned: u64,
    /// Row groups of the files whose time range overlaps the window.
    pub row_groups: u64,
    /// Row groups read.
    pub row_groups_scanned: u64,
}

/// Rows a file of a sorted merge decodes at a time, however many files it merges.
const MIN_MERGE_BATCH_ROWS: usize = 256;

/// A running scan: [`Scanner::next_batch`] until `None`.
pub struct Scanner {
    lake: Lake,
    /// [`ScanOrder::Files`]: the files left, in order.
    queue: VecDeque<DataFile>,
    /// Sorted orders: the groups of files left (each group's time ranges overlap, groups do
    /// not), in the order they are read.
    groups: VecDeque<Vec<DataFile>>,
    order: ScanOrder,
    start_us: i64,
    end_us: i64,
    constraints: TagConstraints,
    batch_rows: usize,
    budget: Arc<Budget>,
    stats: ScanStats,
    current: Option<(String, ParquetRecordBatchStream<CountingReader>)>,
    merge: Option<Merge>,
}

impl Scanner {
    pub(crate) fn new(lake: Lake, request: ScanRequest) -> Result<Scanner, LakeError> {
        let mut stats = ScanStats {
            files: request.files.len() as u64,
            ..ScanStats::default()
        };
        let mut queue = VecDeque::new();
        for file in request.files {
            if file.max_time_us < request.start_us || file.min_time_us >= request.end_us {
                continue;
            }
            stats.bytes_in_range += file.bytes;
            stats.row_groups += u64::from(file.row_groups);
            if file.stats.may_match(&request.constraints) {
                queue.push_back(file);
            }
        }
        let groups = match request.order {
            ScanOrder::Files => VecDeque::new(),
            ScanOrder::Ascending => overlapping_groups(std::mem::take(&mut queue)),
            ScanOrder::Descending => overlapping_groups(std::mem::take(&mut queue))
                .into_iter()
                .rev()
                .collect(),
        };
        Ok(Scanner {
            lake,
            queue,
            groups,
            order: request.order,
            start_us: request.start_us,
            end_us: request.end_us,
            constraints: request.constraints,
            batch_rows: request.batch_rows.max(1),
            budget: Arc::new(Budget::new(request.max_bytes)),
            stats,
            current: None,
            merge: None,
        })
    }

    /// The next events with `event_time` in the window, in file order; `None` at the end.
    /// `Err(LakeError::ScanBudget { .. })` when the next fetch would pass the budget (that fetch
    /// is not made).
    pub async fn next_batch(&mut self) -> Result<Option<Vec<LogEvent>>, LakeError> {
        if self.order != ScanOrder::Files {
            return self.next_sorted_batch().await;
        }
        loop {
            if let Some((path, stream)) = &mut self.current {
                match stream.next().await {
                    Some(Ok(batch)) => {
                        let events = decode(&batch, self.start_us, self.end_us, &self.constraints)
                            .map_err(|problem| LakeError::Event {
                                path: path.clone(),
                                problem,
                            })?;
                        if !events.is_empty() {
                            return Ok(Some(events));
                        }
                    }
                    Some(Err(e)) => return Err(failure(&self.budget, path.clone(), e)),
                    None => self.current = None,
                }
                continue;
            }
            let Some(file) = self.queue.pop_front() else {
                return Ok(None);
            };
            let rows = self.batch_rows;
            self.current = self
                .open(file, false, rows)
                .await?
                .map(|o| (o.path, o.stream));
        }
    }

    /// [`Scanner::next_batch`] in a sorted order: the files of a group merged by time.
    async fn next_sorted_batch(&mut self) -> Result<Option<Vec<LogEvent>>, LakeError> {
        let descending = self.order == ScanOrder::Descending;
        loop {
            if let Some(merge) = &mut self.merge {
                let events = merge.next_batch(self.batch_rows).await?;
                if !events.is_empty() {
                    return Ok(Some(events));
                }
                self.merge = None;
            }
            let Some(group) = self.groups.pop_front() else {
                return Ok(None);
            };
            // Every file of the group is open at once, each holding a decoded batch: the
            // group shares one batch's worth of rows (at least MIN_MERGE_BATCH_ROWS a file).
            let rows = (self.batch_rows / group.len().max(1)).max(MIN_MERGE_BATCH_ROWS);
            let mut cursors = Vec::new();
            for file in group {
                if let Some(opened) = self.open(file, descending, rows).await? {
                    cursors.push(Cursor::new(opened, self.window(), descending));
                }
            }
            self.merge = Some(Merge::new(cursors, descending));
        }
    }

    fn window(&self) -> Window {
        Window {
            start_us: self.start_us,
            end_us: self.end_us,
            constraints: self.constraints.clone(),
            budget: Arc::clone(&self.budget),
        }
    }

    /// The counters so far.
    pub fn stats(&self) -> ScanStats {
        ScanStats {
            bytes_scanned: self.budget.scanned(),
            ..self.stats
        }
    }

    fn error(&self, path: String, source: ParquetError) -> LakeError {
        failure(&self.budget, path, source)
    }

    /// Reads a file's footer, picks its row groups, and starts reading them (last to first
    /// when `reverse`) `batch_rows` rows at a time; `None` when no row group survives.
    async fn open(
        &mut self,
        file: DataFile,
        reverse: bool,
        batch_rows: usize,
    ) -> Result<Option<Opened>, LakeError> {
        let mut reader = CountingReader {
            store: Arc::clone(&self.lake.store),
            path: self.lake.object_path(&file.path)?,
            file_size: file.bytes,
            budget: Arc::clone(&self.budget),
        };
        let metadata = ArrowReaderMetadata::load_async(&mut reader, ArrowReaderOptions::new())
            .await
            .map_err(|e| self.error(file.path.clone(), e))?;
        self.stats.files_scanned += 1;
        let parquet = Arc::clone(metadata.metadata());
        let schema = parquet.file_metadata().schema_descr_ptr();
        let mut builder = ParquetRecordBatchStreamBuilder::new_with_metadata(reader, metadata);
        let mut selected = Vec::new();
        for (index, group) in parquet.row_groups().iter().enumerate() {
            if !time_overlaps(group, self.start_us, self.end_us) {
                continue;
            }
            let mut keep = true;
            for clause in &self.constraints {
                let mut holds = false;
                for (key, value) in clause {
                    let Some(leaf) = leaf_index(&schema, key) else {
                        holds = true;
                        break;
                    };
                    if !value_in_range(group, leaf, value) {
                        continue;
                    }
                    let bloom = builder
                        .get_row_group_column_bloom_filter(index, leaf)
                        .await
                        .map_err(|e| self.error(file.path.clone(), e))?;
                    if bloom.is_none_or(|b| b.check(value.as_str())) {
                        holds = true;
                        break;
                    }
                }
                if !holds {
                    keep = false;
                    break;
                }
            }
            if keep {
                selected.push(index);
            }
        }
        if selected.is_empty() {
            return Ok(None);
        }
        if reverse {
            selected.reverse();
        }
        let group_rows = selected
            .iter()
            .map(|&i| usize::try_from(parquet.row_group(i).num_rows()).unwrap_or(0))
            .collect();
        self.stats.row_groups_scanned += selected.len() as u64;
        let roots: Vec<usize> = schema
            .root_schema()
            .get_fields()
            .iter()
            .enumerate()
            .filter(|(_, f)| BASE_COLUMNS.contains(&f.name()))
            .map(|(i, _)| i)
            .collect();
        let stream = builder
            .with_row_groups(selected)
            .with_projection(ProjectionMask::roots(&schema, roots))
            .with_batch_size(batch_rows)
            .build()
            .map_err(|e| self.error(file.path.clone(), e))?;
        Ok(Some(Opened {
            path: file.path,
            stream,
            group_rows,
        }))
    }
}

/// Groups of files whose time ranges overlap (a file joins the group of the files before it
/// when it starts before their last event), oldest group first; groups do not overlap.
fn overlapping_groups(mut files: VecDeque<DataFile>) -> VecDeque<Vec<DataFile>> {
    files
        .make_contiguous()
        .sort_by(|a, b| (a.min_time_us, &a.path).cmp(&(b.min_time_us, &b.path)));
    let mut groups: VecDeque<Vec<DataFile>> = VecDeque::new();
    let mut group_max = i64::MIN;
    for file in files {
        match groups.back_mut() {
            Some(group) if file.min_time_us <= group_max => {
                group_max = group_max.max(file.max_time_us);
                group.push(file);
            }
            _ => {
                group_max = file.max_time_us;
                groups.push_back(vec![file]);
            }
        }
    }
    groups
}

/// Whether a row group's `event_time` statistics overlap `[start, end)` (no statistics: yes).
fn time_overlaps(group: &RowGroupMetaData, start: i64, end: i64) -> bool {
    match group.columns().first().and_then(|c| c.statistics()) {
        Some(Statistics::Int64(s)) => match (s.min_opt(), s.max_opt()) {
            (Some(min), Some(max)) => *max >= start && *min < end,
            _ => true,
        },
        _ => true,
    }
}

/// The leaf column of a promoted tag's values, `tag_<key>.list.element`.
fn leaf_index(schema: &parquet::schema::types::SchemaDescriptor, key: &str) -> Option<usize> {
    let column = promoted_column(key);
    schema.columns().iter().position(|c| {
        let parts = c.path().parts();
        parts.len() == 3 && parts[0] == column && parts[1] == "list" && parts[2] == "element"
    })
}

/// Whether a value may be in a leaf by its min/max (no statistics: yes; no values: no).
fn value_in_range(group: &RowGroupMetaData, leaf: usize, value: &str) -> bool {
    let Some(column) = group.columns().get(leaf) else {
        return true;
    };
    match column.statistics() {
        Some(Statistics::ByteArray(s)) => match (s.min_opt(), s.max_opt()) {
            (Some(min), Some(max)) => {
                min.data() <= value.as_bytes() && value.as_bytes() <= max.data()
            }
            _ => s.null_count_opt().is_none(),
        },
        _ => true,
    }
}
