//! Datasets, their committed files, and integrations: what `/v1/datasets` and
//! `/v1/integrations` take and answer with (`docs/api.md`, "Datasets", "Integrations").

use serde::{Deserialize, Serialize};

/// The time partitionings a dataset may have (`partitioning`).
pub const PARTITIONINGS: &[&str] = &["HOUR", "DAY", "MONTH", "YEAR"];
/// The promoted tags of a dataset whose body names none.
pub const DEFAULT_PROMOTED_TAGS: &[&str] = &["service", "host", "level", "env"];
/// Most promoted tags a dataset may have.
pub const MAX_PROMOTED_TAGS: usize = 8;
/// A promoted tag key: `[A-Za-z0-9_.-]{1,64}` (it names a Parquet column).
pub const TAG_KEY_PATTERN: &str = "^[A-Za-z0-9_.-]{1,64}$";
/// Longest `retentionDays`: 36 500 days (100 years; keeping data longer is `null`, forever).
pub const MAX_RETENTION_DAYS: u32 = 36_500;

/// The body of `POST /v1/datasets` and `PUT /v1/datasets/{id}` (a dataset file of
/// `jobgraph dataset:create`). Absent fields take their defaults; a `PUT` replaces every
/// field. With the feature `openapi` its schema is the one the service publishes and checks
/// every body against (`dataset_schema.rs`): required `name`, the enumerations, bounds and
/// patterns below.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DatasetInput {
    /// Update only (ignored by a create): the version this update replaces (the current one,
    /// ≥ 1); the service answers 409 with the current version otherwise. `None`: replace
    /// whatever is current.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<u64>,
    /// Name, unique among the organization's live datasets (required).
    pub name: String,
    /// Description (default `""`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Time partitioning of the files: `HOUR` (default), `DAY`, `MONTH` or `YEAR`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partitioning: Option<String>,
    /// Days data is kept, 1 to [`MAX_RETENTION_DAYS`]; absent or `null`: kept forever.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retention_days: Option<u32>,
    /// Tag keys copied into their own prunable columns (at most 8, each
    /// `[A-Za-z0-9_.-]{1,64}`; default `["service", "host", "level", "env"]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub promoted_tags: Option<Vec<String>>,
    /// The teams it belongs to; absent: none on a create, unchanged on an update.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub team_ids: Option<Vec<String>>,
}

/// A dataset.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DatasetOut {
    /// Dataset id (16 URL-safe characters).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub id: String,
    /// Name, unique among the organization's live datasets.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub name: String,
    /// Description (`""` when none).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub description: String,
    /// `HOUR`, `DAY`, `MONTH` or `YEAR`.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub partitioning: String,
    /// Days data is kept; `null`: forever.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub retention_days: Option<u32>,
    /// Tag keys with their own columns.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub promoted_tags: Vec<String>,
    /// Owning organization.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub organization_id: String,
    /// 1 at creation, +1 on each update.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub version: u64,
    /// When it was created (ISO 8601 UTC).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub created_at: String,
    /// When it was last updated (ISO 8601 UTC).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub updated_at: String,
    /// The teams it belongs to; empty: the organization's.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub team_ids: Vec<String>,
}

/// One committed data file of a dataset (`GET /v1/datasets/{id}/files`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DatasetFile {
    /// The dataset's table (`logs` by default).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub table: String,
    /// Where the Parquet file is: what DuckDB's `read_parquet` and other tools read.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub path: String,
    /// Start of its time partition (ISO 8601 UTC).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub partition_start: String,
    /// Earliest event time in it (ISO 8601 UTC, µs).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub min_time: String,
    /// Latest event time in it (ISO 8601 UTC, µs).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub max_time: String,
    /// Rows (events).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub rows: i64,
    /// Size in bytes.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub bytes: i64,
    /// Parquet row groups.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub row_groups: i64,
    /// The job run that wrote it.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub run_id: String,
}

/// A job that uses an integration.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct IntegrationJob {
    /// Job id.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub id: String,
    /// Job name.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub name: String,
}

/// An integration (a vendor or storage destination of `logs-sync-sink`), from the service's
/// configuration.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct IntegrationOut {
    /// Identifier, as a `logs-sync-sink`'s `integration` names it.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub id: String,
    /// Name.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub name: String,
    /// Type (free text: `splunk`, `s3`, …).
    #[serde(default, rename = "type")]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub kind: String,
    /// The caller organization's live jobs whose latest resolved graph has a vertex with
    /// `integration` equal to `id`, oldest first.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub jobs: Vec<IntegrationJob>,
    /// Where its agents send logs (`POST /api/v2/logs`, `POST /v1/logs`,
    /// `POST /services/collector/event`), when it has an ingest key; the key is never shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ingest: Option<String>,
    /// Events taken from its agents since the service started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events_taken: Option<u64>,
    /// Requests of its agents refused since the service started (bad key, bad body, busy).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests_refused: Option<u64>,
    /// Events taken and not yet read by every pipeline that reads it (in the intake log).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buffered_events: Option<u64>,
    /// Their bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buffered_bytes: Option<u64>,
    /// Where its sinks deliver (the vendor's intake), when it has a delivery key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delivers_to: Option<String>,
}
