//! The data lake behind `jobgraph serve` (docs/lake.md): log events in partitioned Parquet
//! files on object storage (a local directory, or S3 with the feature `s3`).
//!
//! A job writes its events with a [`TableWriter`] ([`Lake::writer`]); the files it returns
//! ([`DataFile`]) become visible to queries only when the caller commits them to its manifest.
//! A query scans committed files with a [`Scanner`] ([`Lake::scan`]), which prunes files and row
//! groups by time and promoted tags and counts every byte it fetches. [`Lake::collect_garbage`]
//! deletes files no manifest row references.

mod constraints;
mod error;
mod gc;
mod ids;
mod order;
mod reader;
mod scan;
mod schema;
mod store;
mod time;
mod writer;

pub use constraints::TagConstraints;
pub use error::LakeError;
pub use scan::{ScanOrder, ScanRequest, ScanStats, Scanner};
pub use store::{Lake, S3Options};
pub use time::event_time_us;
pub use writer::{TableWriter, WriteOptions};

use serde::{Deserialize, Serialize};

impl Lake {
    /// A writer of one job run's events into a table. Ids are checked when it first writes
    /// (an organization, dataset, table or run id unfit for a path fails `write` and `finish`).
    pub fn writer(&self, spec: TableSpec, run_id: &str, options: WriteOptions) -> TableWriter {
        TableWriter::new(self.clone(), spec, run_id.to_owned(), options)
    }

    /// A scan of committed files (the caller's manifest gives them), pruned by time and tags.
    pub async fn scan(&self, request: ScanRequest) -> Result<Scanner, LakeError> {
        Scanner::new(self.clone(), request)
    }

    /// Garbage collection: deletes the objects under `<organization>/<dataset_id>/` that are not
    /// in `keep` (paths as in [`crate::DataFile::path`]) and were last modified more than
    /// `grace` ago (a local lake's crash-left staging files `name#N` too); returns how many.
    pub async fn collect_garbage(
        &self,
        organization: &str,
        dataset_id: &str,
        keep: &std::collections::HashSet<String>,
        grace: std::time::Duration,
    ) -> Result<usize, LakeError> {
        crate::gc::collect(self, organization, dataset_id, keep, grace).await
    }

    /// The `(organization, dataset id)` folders the lake holds files under: what garbage
    /// collection walks. Names that are not valid ids (not written by this crate) are skipped.
    pub async fn datasets(&self) -> Result<Vec<(String, String)>, LakeError> {
        crate::gc::datasets(self).await
    }
}

/// How a table's files are partitioned by `event_time` (UTC). Row groups are cut at hour
/// boundaries whatever the partitioning, so time pruning is hour-fine in every case.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Partitioning {
    /// One partition an hour: `event_hour=YYYY-MM-DD-HH`.
    #[default]
    Hour,
    /// One partition a day: `event_day=YYYY-MM-DD`.
    Day,
    /// One partition a month: `event_month=YYYY-MM`.
    Month,
    /// One partition a year: `event_year=YYYY`.
    Year,
}

/// Which table a writer writes, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableSpec {
    /// The organization owning the dataset: a path component, so a name of
    /// [`jobgraph_model::names::PATH_NAME_RULE`] (letters, digits, `-_.:@=+~`, not `.` or `..`).
    pub organization: String,
    /// The dataset id (a path component, same rules).
    pub dataset_id: String,
    /// The table (a path component, same rules; the service's default is `logs`).
    pub table: String,
    /// The partitioning of the files written.
    pub partitioning: Partitioning,
    /// Tag keys copied into their own `tag_<key>` columns, with statistics and bloom filters.
    pub promoted_tags: Vec<String>,
}

/// One Parquet file written by a [`TableWriter`]: what a manifest row records.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DataFile {
    /// The table written.
    pub table: String,
    /// The object path relative to the lake root:
    /// `<org>/<dataset>/<table>/event_hour=YYYY-MM-DD-HH/<run_id>-<n>.parquet`.
    pub path: String,
    /// The start of the file's partition (microseconds since the epoch, UTC).
    pub partition_start_us: i64,
    /// The smallest `event_time` in the file.
    pub min_time_us: i64,
    /// The largest `event_time` in the file.
    pub max_time_us: i64,
    /// Rows (events) in the file.
    pub rows: u64,
    /// The file's size in bytes.
    pub bytes: u64,
    /// Row groups in the file.
    pub row_groups: u32,
    /// What file pruning reads.
    pub stats: FileStats,
}

/// Statistics of a file for pruning without opening it (a manifest row's `stats`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FileStats {
    /// The partitioning the file was written with.
    pub partitioning: Partitioning,
    /// One entry per promoted tag of the file, in column order.
    pub promoted: Vec<TagStats>,
}

/// Bounds of one promoted tag's values in a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TagStats {
    /// The tag key.
    pub key: String,
    /// The column's Parquet field id (`tag_<key>`).
    pub field_id: i32,
    /// The smallest value (byte order), `None` when no row has the tag.
    pub min: Option<String>,
    /// The largest value (byte order), `None` when no row has the tag.
    pub max: Option<String>,
    /// Rows without the tag.
    pub nulls: u64,
}

impl FileStats {
    /// Whether a row of the file may satisfy every clause (false: the file is ruled out).
    /// A clause holds when any of its pairs may hold; a pair on a key the file did not promote
    /// may always hold.
    pub fn may_match(&self, constraints: &TagConstraints) -> bool {
        constraints.iter().all(|clause| {
            clause.iter().any(
                |(key, value)| match self.promoted.iter().find(|s| s.key == *key) {
                    None => true,
                    Some(s) => match (&s.min, &s.max) {
                        (Some(min), Some(max)) => min <= value && value <= max,
                        _ => false,
                    },
                },
            )
        })
    }
}
