//! The options of `job:to-test`.

use std::path::PathBuf;

use clap::Args;

/// `job:to-test`.
#[derive(Debug, Args)]
pub struct JobToTestArgs {
    /// A job file (`jobGraph`) or a bare graph `{vertices, edges}`, as written (resolve it
    /// first with `jobgraph resolve` to replace the sinks its templates produce too).
    pub job_file: PathBuf,
    /// The test run's id (tag `grepr.test_run_id`) [default: a random id, printed on stderr].
    #[arg(long, value_name = "ID", allow_hyphen_values = true)]
    pub test_run_id: Option<String>,
    /// Replace the sinks by `logs-iceberg-table-sink`s writing to this dataset instead of
    /// `logs-sync-sink`s.
    #[arg(long, value_name = "ID", allow_hyphen_values = true)]
    pub dataset_id: Option<String>,
    /// With --dataset-id: the table written [default: the sink's default, `logs`].
    #[arg(long, value_name = "TABLE", requires = "dataset_id")]
    pub table: Option<String>,
    /// One-line JSON instead of indented JSON.
    #[arg(long)]
    pub compact: bool,
}
