//! The `intake` setting of the `--config` file (`docs/intake.md`): how much the intake keeps
//! and takes. Kept apart from the handlers so that the settings depend on nothing of the
//! service.

use serde::Deserialize;

/// How agents' logs are taken (`intake` in `--config`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct IntakeConfig {
    /// The disk budget of the intake log: bytes of events taken and not yet read by every
    /// pipeline that reads them. Past it, intake answers 429 (Splunk: 503) with `Retry-After`
    /// until the pipelines catch up. Default 1 GiB.
    pub max_buffered_bytes: u64,
    /// The share of that budget one integration may hold, so that agents of one integration
    /// whose pipelines are behind do not turn away the others' (429 for that integration
    /// only). Default: the whole budget.
    pub max_buffered_bytes_per_integration: Option<u64>,
    /// Largest request body once decompressed, in bytes (the body as sent is bounded by
    /// `maxBodyBytes`). Default 32 MiB.
    pub max_decoded_bytes: usize,
    /// Events one request may bring. Default 100 000.
    pub max_events_per_request: usize,
    /// The `Retry-After` of a refusal, in seconds. Default 5.
    pub retry_after_seconds: u64,
    /// Events no running pipeline reads are kept this long, in ms, for a pipeline about to
    /// start (within the disk budget). Default 600 000 (10 minutes).
    pub unread_retention_ms: u64,
    /// How often the entries every reader has passed are deleted, in ms. Default 5000.
    pub trim_ms: u64,
    /// Keep the intake log on NATS JetStream instead of the data folder, so that replicas
    /// share it (`docs/intake.md`, "Beyond one machine"). Default: none (the embedded log).
    pub nats: Option<NatsConfig>,
}

impl Default for IntakeConfig {
    fn default() -> Self {
        IntakeConfig {
            max_buffered_bytes: 1 << 30,
            max_buffered_bytes_per_integration: None,
            max_decoded_bytes: 32 << 20,
            max_events_per_request: 100_000,
            retry_after_seconds: 5,
            unread_retention_ms: 600_000,
            trim_ms: 5000,
            nats: None,
        }
    }
}

/// `intake.nats` in `--config`.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NatsConfig {
    /// The server(s), `nats://host:4222` (comma-separated for several); a user and password
    /// or a token go in the URL (`nats://user:password@host:4222`), which is never shown.
    pub url: String,
    /// The stream's name. Default `JOBGRAPH_INTAKE`.
    #[serde(default = "default_stream")]
    pub stream: String,
    /// The subjects' prefix: an integration's events go to `{prefix}.{integration id}`.
    /// Default `jobgraph.intake`.
    #[serde(default = "default_prefix")]
    pub subject_prefix: String,
    /// Copies JetStream keeps of each message (1, 3 or 5 in a cluster). Default 1.
    #[serde(default = "default_replicas")]
    pub replicas: usize,
    /// Partitions of each integration's events (`docs/intake.md`, "Partitions"): above 1, an
    /// event goes to `{prefix}.{integration}.{p}` with `p` = a hash of its `partitionByTags`
    /// mod `partitions`, and a pipeline whose reducers partition by those tags runs as that
    /// many partitions, each claimed by a replica of its own. Fixed for the stream's life.
    /// Default 1.
    #[serde(default = "default_partitions")]
    pub partitions: u32,
    /// The tags an event's partition is a hash of. Default `["service"]`.
    #[serde(default = "default_partition_tags")]
    pub partition_by_tags: Vec<String>,
}

impl NatsConfig {
    /// The partitions, at least 1.
    pub fn partition_count(&self) -> u32 {
        self.partitions.max(1)
    }
}

impl std::fmt::Debug for NatsConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // A URL may hold a user and password.
        f.debug_struct("NatsConfig")
            .field("stream", &self.stream)
            .field("subject_prefix", &self.subject_prefix)
            .field("replicas", &self.replicas)
            .field("partitions", &self.partitions)
            .field("partition_by_tags", &self.partition_by_tags)
            .finish_non_exhaustive()
    }
}

fn default_stream() -> String {
    "JOBGRAPH_INTAKE".into()
}
fn default_prefix() -> String {
    "jobgraph.intake".into()
}
fn default_replicas() -> usize {
    1
}
fn default_partitions() -> u32 {
    1
}
fn default_partition_tags() -> Vec<String> {
    vec!["service".into()]
}
