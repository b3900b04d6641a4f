//! The options of running jobs on events here (`job:run`, `job:draft`) and of `query:check`.

use std::path::PathBuf;

use clap::Args;
use jobgraph_core::pipeline::RunOptions;

use super::{OutputArgs, scripts::Common};

/// Bounds of a run of events.
#[derive(Debug, Clone, Args)]
pub struct RunLimits {
    /// Input events at most (all sources together).
    #[arg(long, value_name = "N", default_value_t = RunOptions::local().max_events)]
    pub max_events: usize,
    /// Time limit of the run, in milliseconds (not counting reading and writing, except when
    /// `job:run` streams its input: then from the first byte read).
    #[arg(long, value_name = "MS", default_value_t = RunOptions::local().timeout_ms)]
    pub run_timeout_ms: u64,
}

/// `job:run`.
#[derive(Args)]
pub struct JobRunArgs {
    /// A job file (`jobGraph`) or a bare graph `{vertices, edges}`; its template operations are
    /// resolved first, with --templates.
    pub job_file: PathBuf,
    /// Events: NDJSON (one per line) or a JSON array. Every `logs-iceberg-table-source` and
    /// `grepr-raw-log-source` receives them. `-` reads stdin.
    #[arg(long, value_name = "FILE")]
    pub events: PathBuf,
    /// Folder of templates for the job's template operations.
    #[arg(long, short = 't', value_name = "DIR", conflicts_with = "remote")]
    pub templates: Option<PathBuf>,
    /// Resolve the job's template operations with the service's templates (its configured
    /// API and credentials; scripts still run here, as `resolve` does). The run is local.
    #[arg(long)]
    pub remote: bool,
    /// The sink whose events to print, when the job has several.
    #[arg(long, value_name = "NAME")]
    pub sink: Option<String>,
    /// Bounds of the run.
    #[command(flatten)]
    pub limits: RunLimits,
    /// Sandbox and limits of the templates' scripts.
    #[command(flatten)]
    pub common: Common,
}

/// `job:draft`.
#[derive(Args)]
pub struct JobDraftArgs {
    /// A job file (`jobGraph`) or a bare graph; resolved in draft mode.
    pub job_file: PathBuf,
    /// Sample events: NDJSON or a JSON array (`-` reads stdin).
    #[arg(long, value_name = "FILE")]
    pub sample_logs: PathBuf,
    /// Folder of templates for the job's template operations.
    #[arg(long, short = 't', value_name = "DIR", conflicts_with = "remote")]
    pub templates: Option<PathBuf>,
    /// Resolve the job's template operations with the service's templates (its configured
    /// API and credentials; scripts still run here, as `resolve` does). The run is local.
    #[arg(long)]
    pub remote: bool,
    /// Events shown per stage (counts are always complete).
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub keep: usize,
    /// Bounds of the run.
    #[command(flatten)]
    pub limits: RunLimits,
    /// Sandbox and limits of the templates' scripts.
    #[command(flatten)]
    pub common: Common,
    /// Output.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `query:check`.
#[derive(Args)]
pub struct QueryCheckArgs {
    /// The query, e.g. `(level:warn OR level:error) AND NOT service:healthcheck`.
    pub query: String,
}
