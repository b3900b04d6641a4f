//! The records of datasets and of their lake manifest (`docs/lake.md` §3.1, §4), shared by
//! both stores.

use serde::{Deserialize, Serialize};

use super::PageKey;

/// The fields of a dataset that callers write (everything but id, version, organization and
/// times).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatasetFields {
    /// Unique among the organization's live datasets.
    pub name: String,
    /// Free text (`""` when none).
    pub description: String,
    /// `HOUR`, `DAY`, `MONTH` or `YEAR`.
    pub partitioning: String,
    /// Partitions wholly older than this many days leave the manifest; `None` keeps them.
    pub retention_days: Option<u32>,
    /// Tag keys copied into their own prunable columns.
    pub promoted_tags: Vec<String>,
    /// The teams it belongs to; empty: the organization's.
    pub team_ids: Vec<String>,
}

/// One stored dataset (its current state; updates replace it and bump `version`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatasetRecord {
    /// Dataset id.
    pub id: String,
    /// Owning organization.
    pub organization: String,
    /// 1 at creation, +1 on each update.
    pub version: u64,
    /// When it was created (ms since the epoch).
    pub created_at_ms: i64,
    /// When it was last written (ms since the epoch).
    pub updated_at_ms: i64,
    /// Its fields.
    pub fields: DatasetFields,
}

impl DatasetRecord {
    /// Where a page of the dataset listing that ends with this record continues.
    pub fn page_key(&self) -> PageKey {
        PageKey {
            created_at_ms: self.created_at_ms,
            id: self.id.clone(),
            version: 0,
            file: None,
        }
    }
}

/// One committed data file of a dataset's table: a row of `lake_files`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LakeFileRecord {
    /// The dataset's table the file belongs to (`logs` by default).
    pub table: String,
    /// Where the file is (a path under the lake's root, or an object store key).
    pub path: String,
    /// Start of the time partition it is in, µs since the epoch.
    pub partition_start_us: i64,
    /// Smallest `event_time` in the file, µs since the epoch.
    pub min_time_us: i64,
    /// Largest `event_time` in the file, µs since the epoch.
    pub max_time_us: i64,
    /// Rows in the file.
    pub rows: i64,
    /// Size of the file in bytes.
    pub bytes: i64,
    /// Row groups in the file.
    pub row_groups: i64,
    /// The job run that wrote and committed it.
    pub run_id: String,
    /// Statistics as JSON text; the store keeps it as given.
    pub stats: String,
}

/// Where a file sorts in the listing of a dataset's files: partition start, smallest time,
/// path (byte order). The path alone is unique in a dataset, so the key is too.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct FileKey {
    /// The file's partition start, µs since the epoch.
    #[serde(rename = "p")]
    pub partition_start_us: i64,
    /// Its smallest `event_time`, µs since the epoch.
    #[serde(rename = "m")]
    pub min_time_us: i64,
    /// Its path.
    #[serde(rename = "f")]
    pub path: String,
}

impl LakeFileRecord {
    /// Where a page of a dataset's files that ends with this file continues.
    pub fn page_key(&self) -> PageKey {
        PageKey {
            file: Some(FileKey {
                partition_start_us: self.partition_start_us,
                min_time_us: self.min_time_us,
                path: self.path.clone(),
            }),
            ..PageKey::default()
        }
    }

    /// The size of the file's row as stored (its texts, and eight bytes per number), what a
    /// page's byte budget counts.
    pub(crate) fn stored_size(&self) -> usize {
        self.table.len() + self.path.len() + self.run_id.len() + self.stats.len() + 6 * 8
    }
}

/// The fields of a `lake_commits` row: the commit of `files` by one run.
pub(crate) struct CommitSummary {
    /// The tables of the files, comma-separated, in first-seen order.
    pub tables: String,
    /// How many files.
    pub files: i64,
    /// Rows of every file.
    pub rows: i64,
    /// Bytes of every file.
    pub bytes: i64,
}

impl CommitSummary {
    /// The summary of a commit of `files`.
    pub(crate) fn of(files: &[LakeFileRecord]) -> CommitSummary {
        let mut tables: Vec<&str> = Vec::new();
        for file in files {
            if !tables.contains(&file.table.as_str()) {
                tables.push(&file.table);
            }
        }
        CommitSummary {
            tables: tables.join(","),
            files: i64::try_from(files.len()).unwrap_or(i64::MAX),
            rows: files.iter().map(|f| f.rows).fold(0, i64::saturating_add),
            bytes: files.iter().map(|f| f.bytes).fold(0, i64::saturating_add),
        }
    }
}

/// Promoted tag keys as the JSON text both stores keep.
pub(crate) fn tags_text(tags: &[String]) -> String {
    serde_json::to_string(tags).unwrap_or_else(|_| "[]".into())
}
