//! Writing a job run's events: buffered per partition, sorted, written as Parquet files.

use std::collections::{BTreeSet, HashMap};
use std::hash::{Hash, Hasher};

use bytes::Bytes;
use jobgraph_model::LogEvent;
use object_store::{ObjectStoreExt, PutPayload};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::metadata::SortingColumn;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::schema::types::ColumnPath;
use serde_json::Value;

use crate::ids::check_id;
use crate::schema::{encode, promoted_column, promoted_field_id};
use crate::time::{HOUR_US, event_time_us, partition_dir, partition_start};
use crate::{DataFile, FileStats, Lake, LakeError, TableSpec, TagStats};

/// Limits of a [`TableWriter`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// Rows per row group at most (a row group also ends at each hour boundary). Default 131 072.
    pub row_group_rows: usize,
    /// A partition's buffer is written as a file once its events' estimated size (their JSON
    /// fields' lengths, more than the compressed file) reaches this. Default 128 MiB.
    pub max_file_bytes: u64,
    /// Partitions buffered at once; a new one first writes out the least recently written.
    /// Default 64.
    pub max_open_partitions: usize,
    /// The estimated size of everything buffered, all partitions together: past it, the
    /// largest buffer is written out. What bounds a writer's memory whatever order events
    /// come in (events scattered over many partitions make smaller files instead). Default
    /// 256 MiB.
    pub max_buffered_bytes: u64,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            row_group_rows: 131_072,
            max_file_bytes: 128 << 20,
            max_open_partitions: 64,
            max_buffered_bytes: 256 << 20,
        }
    }
}

struct Buffer {
    events: Vec<(i64, LogEvent)>,
    estimate: u64,
    touched: u64,
}

/// Writes one job run's events into a table, one or more files per partition.
///
/// Files go straight to their final paths (a `put` is atomic) but nothing reads them until the
/// caller commits the [`DataFile`]s [`TableWriter::finish`] returns. An event without an `id`
/// gets a time-ordered one: 16 hex digits of its `event_time` (offset so that order is kept
/// for times before 1970), 8 of a hash of the run id, and a 6-digit sequence number,
/// `0019c4d1a7e2f000-3f2a9b10-000001`.
pub struct TableWriter {
    lake: Lake,
    spec: TableSpec,
    run_id: String,
    options: WriteOptions,
    partitions: HashMap<i64, Buffer>,
    /// The estimates of every buffer, summed.
    buffered: u64,
    clock: u64,
    next_file: u64,
    next_id: u64,
    run_hash: u32,
    written: Vec<DataFile>,
}

impl TableWriter {
    pub(crate) fn new(
        lake: Lake,
        spec: TableSpec,
        run_id: String,
        options: WriteOptions,
    ) -> TableWriter {
        let mut hasher = std::hash::DefaultHasher::new();
        run_id.hash(&mut hasher);
        TableWriter {
            lake,
            spec,
            run_hash: hasher.finish() as u32,
            run_id,
            options,
            partitions: HashMap::new(),
            buffered: 0,
            clock: 0,
            next_file: 0,
            next_id: 0,
            written: Vec::new(),
        }
    }

    fn check(&self) -> Result<(), LakeError> {
        check_id("organization", &self.spec.organization)?;
        check_id("dataset id", &self.spec.dataset_id)?;
        check_id("table", &self.spec.table)?;
        check_id("run id", &self.run_id)
    }

    /// Buffers events by partition, writing a partition's file when it reaches
    /// `max_file_bytes` or when `max_open_partitions` would be passed.
    pub async fn write(&mut self, events: &[LogEvent]) -> Result<(), LakeError> {
        self.check()?;
        let now_us = now_us();
        for event in events {
            let time = event_time_us(event, now_us);
            let mut event = event.clone();
            if event.id.is_none() {
                self.next_id += 1;
                let biased = (time as u64) ^ (1 << 63);
                event.id = Some(Value::String(format!(
                    "{biased:016x}-{:08x}-{:06}",
                    self.run_hash, self.next_id
                )));
            }
            let partition = partition_start(self.spec.partitioning, time);
            if !self.partitions.contains_key(&partition)
                && self.partitions.len() >= self.options.max_open_partitions.max(1)
                && let Some(oldest) = self
                    .partitions
                    .iter()
                    .min_by_key(|(_, b)| b.touched)
                    .map(|(p, _)| *p)
            {
                self.flush(oldest).await?;
            }
            self.clock += 1;
            let buffer = self.partitions.entry(partition).or_insert(Buffer {
                events: Vec::new(),
                estimate: 0,
                touched: 0,
            });
            buffer.touched = self.clock;
            let size = estimate(&event);
            buffer.estimate += size;
            self.buffered += size;
            buffer.events.push((time, event));
            if buffer.estimate >= self.options.max_file_bytes {
                self.flush(partition).await?;
            }
            while self.buffered > self.options.max_buffered_bytes {
                let Some(largest) = self
                    .partitions
                    .iter()
                    .max_by_key(|(_, b)| b.estimate)
                    .map(|(p, _)| *p)
                else {
                    break;
                };
                self.flush(largest).await?;
            }
        }
        Ok(())
    }

    /// Writes what is buffered and returns every file written, in the order written.
    pub async fn finish(mut self) -> Result<Vec<DataFile>, LakeError> {
        self.check()?;
        let mut open: Vec<i64> = self.partitions.keys().copied().collect();
        open.sort_unstable();
        for partition in open {
            self.flush(partition).await?;
        }
        Ok(self.written)
    }

    /// Deletes the files already written and drops what is buffered.
    pub async fn abort(self) -> Result<(), LakeError> {
        for file in &self.written {
            let path = self.lake.object_path(&file.path)?;
            match self.lake.store.delete(&path).await {
                Ok(()) | Err(object_store::Error::NotFound { .. }) => {}
                Err(source) => {
                    return Err(LakeError::Store {
                        path: file.path.clone(),
                        source,
                    });
                }
            }
        }
        Ok(())
    }

    async fn flush(&mut self, partition: i64) -> Result<(), LakeError> {
        let Some(buffer) = self.partitions.remove(&partition) else {
            return Ok(());
        };
        self.buffered = self.buffered.saturating_sub(buffer.estimate);
        let mut events = buffer.events;
        if events.is_empty() {
            return Ok(());
        }
        let first_promoted = self.spec.promoted_tags.first();
        let key = |event: &LogEvent| {
            first_promoted
                .and_then(|k| event.tags.get(k))
                .and_then(|v| v.first())
                .cloned()
        };
        events.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| key(&a.1).cmp(&key(&b.1))));
        self.next_file += 1;
        let path = format!(
            "{}/{}/{}/{}/{}-{}.parquet",
            self.spec.organization,
            self.spec.dataset_id,
            self.spec.table,
            partition_dir(self.spec.partitioning, partition),
            self.run_id,
            self.next_file
        );
        let (data, row_groups) = self.encode_file(&events, &path)?;
        let bytes = data.len() as u64;
        let location = self.lake.object_path(&path)?;
        self.lake
            .store
            .put(&location, PutPayload::from(Bytes::from(data)))
            .await
            .map_err(|source| LakeError::Store {
                path: path.clone(),
                source,
            })?;
        let stats = FileStats {
            partitioning: self.spec.partitioning,
            promoted: self
                .spec
                .promoted_tags
                .iter()
                .enumerate()
                .map(|(i, key)| tag_stats(key, promoted_field_id(i), &events))
                .collect(),
        };
        self.written.push(DataFile {
            table: self.spec.table.clone(),
            path,
            partition_start_us: partition,
            min_time_us: events.first().map_or(0, |e| e.0),
            max_time_us: events.last().map_or(0, |e| e.0),
            rows: events.len() as u64,
            bytes,
            row_groups,
            stats,
        });
        Ok(())
    }

    /// The Parquet bytes of sorted events, and their row-group count.
    fn encode_file(
        &self,
        events: &[(i64, LogEvent)],
        path: &str,
    ) -> Result<(Vec<u8>, u32), LakeError> {
        let parquet = |source| LakeError::Parquet {
            path: path.to_owned(),
            source,
        };
        let arrow = |source| LakeError::Arrow {
            path: path.to_owned(),
            source,
        };
        let rows = self.options.row_group_rows.max(1);
        let mut props = WriterProperties::builder()
            .set_compression(Compression::ZSTD(ZstdLevel::try_new(3).map_err(parquet)?))
            .set_max_row_group_row_count(Some(rows))
            .set_sorting_columns(Some(vec![SortingColumn {
                column_idx: 0,
                descending: false,
                nulls_first: false,
            }]));
        // Statistics only where pruning reads them (event_time, severity, promoted leaves): the
        // min/max of messages, attributes and the tags map would fill every footer for nothing.
        for column in NO_STATISTICS {
            let path = ColumnPath::new(column.iter().map(|p| (*p).to_owned()).collect());
            props = props.set_column_statistics_enabled(path, EnabledStatistics::None);
        }
        for key in &self.spec.promoted_tags {
            let distinct: BTreeSet<&str> = events
                .iter()
                .filter_map(|(_, e)| e.tags.get(key))
                .flatten()
                .map(String::as_str)
                .collect();
            let column = ColumnPath::new(vec![
                promoted_column(key),
                "list".to_owned(),
                "element".to_owned(),
            ]);
            props = props
                .set_column_bloom_filter_enabled(column.clone(), true)
                .set_column_bloom_filter_fpp(column.clone(), 0.01)
                .set_column_bloom_filter_max_ndv(column, distinct.len().max(1) as u64);
        }
        let mut writer: Option<ArrowWriter<Vec<u8>>> = None;
        let mut row_groups = 0u32;
        let mut start = 0;
        while start < events.len() {
            let hour = events[start].0.div_euclid(HOUR_US);
            let mut end = start + 1;
            while end < events.len()
                && end - start < rows
                && events[end].0.div_euclid(HOUR_US) == hour
            {
                end += 1;
            }
            let batch = encode(&events[start..end], &self.spec.promoted_tags).map_err(arrow)?;
            let w = match &mut writer {
                Some(w) => w,
                None => writer.insert(
                    ArrowWriter::try_new(Vec::new(), batch.schema(), Some(props.clone().build()))
                        .map_err(parquet)?,
                ),
            };
            w.write(&batch).map_err(parquet)?;
            w.flush().map_err(parquet)?;
            row_groups += 1;
            start = end;
        }
        let data = match writer {
            Some(w) => w.into_inner().map_err(parquet)?,
            None => Vec::new(),
        };
        Ok((data, row_groups))
    }
}

/// Leaf columns written without statistics.
const NO_STATISTICS: [&[&str]; 7] = [
    &["event_timestamp"],
    &["id"],
    &["message"],
    &["tags", "key_value", "key"],
    &["tags", "key_value", "value", "list", "element"],
    &["attributes"],
    &["other"],
];

fn tag_stats(key: &str, field_id: i32, events: &[(i64, LogEvent)]) -> TagStats {
    let mut stats = TagStats {
        key: key.to_owned(),
        field_id,
        min: None,
        max: None,
        nulls: 0,
    };
    for (_, event) in events {
        let Some(values) = event.tags.get(key) else {
            stats.nulls += 1;
            continue;
        };
        for value in values {
            if stats.min.as_ref().is_none_or(|m| value < m) {
                stats.min = Some(value.clone());
            }
            if stats.max.as_ref().is_none_or(|m| value > m) {
                stats.max = Some(value.clone());
            }
        }
    }
    stats
}

/// A cheap size estimate of an event (bytes of its text fields plus a fixed overhead).
fn estimate(event: &LogEvent) -> u64 {
    let tags: usize = event
        .tags
        .iter()
        .map(|(k, v)| k.len() + v.iter().map(String::len).sum::<usize>())
        .sum();
    let attributes = event.attributes.as_ref().map_or(0, |a| a.get().len());
    (64 + event.message.as_ref().map_or(0, String::len)
        + tags
        + attributes
        + 32 * event.other.len()) as u64
}

fn now_us() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::SystemTime::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_micros()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}
