//! The settings of the data lake (`lake` in `--config`): where its files are and the limits
//! of the runs that read and write it. Used by `lake/` (docs/lake.md, docs/api.md).

use serde::Deserialize;

/// Where the lake is and its limits (`lake` in `--config`; camelCase keys).
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct LakeConfig {
    /// `file:///absolute/path` or `s3://bucket/prefix` [default: the folder `lake` in `--data`].
    pub root: Option<String>,
    /// S3 endpoint (for S3-compatible stores; AWS when absent).
    pub s3_endpoint: Option<String>,
    /// S3 region [default: `us-east-1`].
    pub s3_region: Option<String>,
    /// S3 access key id [default: `AWS_ACCESS_KEY_ID`].
    pub s3_access_key_id: Option<String>,
    /// S3 secret access key [default: `AWS_SECRET_ACCESS_KEY`]. Never logged or shown.
    pub s3_secret_access_key: Option<String>,
    /// Whether `http://` endpoints are allowed (a local S3-compatible server).
    pub s3_allow_http: bool,
    /// Bytes one query may fetch from the lake; past it the run ends `SCANNED_MAX`.
    /// Default 100 GB (the public service's).
    pub scan_max_bytes: u64,
    /// Time a synchronous run reading or writing the lake may take; past it, `TIMED_OUT`.
    /// Default 600 000 (10 minutes, the public service's).
    pub query_timeout_ms: u64,
    /// Largest body of `POST /v1/datasets/{id}/load`. Default 16 GiB.
    pub max_load_bytes: u64,
    /// Files no manifest row names are deleted once older than this. Default 3600.
    pub gc_grace_seconds: u64,
    /// How often garbage is collected. Default 3600.
    pub gc_interval_seconds: u64,
    /// Events per batch read from the lake and run through the pipeline. Default 8192.
    pub batch_rows: usize,
}

impl Default for LakeConfig {
    fn default() -> Self {
        LakeConfig {
            root: None,
            s3_endpoint: None,
            s3_region: None,
            s3_access_key_id: None,
            s3_secret_access_key: None,
            s3_allow_http: false,
            scan_max_bytes: 100_000_000_000,
            query_timeout_ms: 600_000,
            max_load_bytes: 16 << 30,
            gc_grace_seconds: 3600,
            gc_interval_seconds: 3600,
            batch_rows: 8192,
        }
    }
}

impl std::fmt::Debug for LakeConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LakeConfig")
            .field("root", &self.root)
            .field("s3_endpoint", &self.s3_endpoint)
            .field("s3_region", &self.s3_region)
            .field("s3_access_key_id", &self.s3_access_key_id)
            .field(
                "s3_secret_access_key",
                &self.s3_secret_access_key.as_ref().map(|_| "<redacted>"),
            )
            .field("s3_allow_http", &self.s3_allow_http)
            .field("scan_max_bytes", &self.scan_max_bytes)
            .field("query_timeout_ms", &self.query_timeout_ms)
            .field("max_load_bytes", &self.max_load_bytes)
            .field("gc_grace_seconds", &self.gc_grace_seconds)
            .field("gc_interval_seconds", &self.gc_interval_seconds)
            .field("batch_rows", &self.batch_rows)
            .finish()
    }
}

impl LakeConfig {
    /// Opens the lake: `root`, else `<data>/lake`.
    pub fn open(
        &self,
        data: &std::path::Path,
    ) -> Result<jobgraph_lake::Lake, jobgraph_lake::LakeError> {
        match &self.root {
            None => jobgraph_lake::Lake::local(&data.join("lake")),
            Some(url) => {
                let s3 = jobgraph_lake::S3Options {
                    endpoint: self.s3_endpoint.clone(),
                    region: self.s3_region.clone(),
                    access_key_id: self.s3_access_key_id.clone(),
                    secret_access_key: self.s3_secret_access_key.clone(),
                    allow_http: self.s3_allow_http,
                };
                jobgraph_lake::Lake::open(url, &s3)
            }
        }
    }
}
