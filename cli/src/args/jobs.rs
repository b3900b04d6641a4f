//! `job:*`: the service's jobs from the command line (create, list, get, update, delete, run,
//! tap, …), and the `processing` and `execution` values they take.

use std::path::PathBuf;

use clap::{Subcommand, ValueEnum};

use super::OutputArgs;

/// `job:*`.
#[derive(Subcommand)]
pub enum JobCommand {
    // The doc comment is also `--help` text, where the markers must read as printed.
    #[allow(rustdoc::broken_intra_doc_links)]
    /// Create a job from a JSON file (`name`, `execution`, `processing`, `jobGraph`, optional
    /// `tags`). The service resolves its template operations.
    ///
    /// Status markers ([CONNECTING], [CONNECTED], then the job's state) go to stderr.
    /// ASYNCHRONOUS jobs are created in the background (POST /v1/jobs/async); SYNCHRONOUS
    /// jobs stream their results (POST /v1/jobs/sync).
    #[command(
        name = "job:create",
        after_help = "Example:\n  jobgraph job:create examples/service/job.json"
    )]
    Create {
        /// The job file.
        job_file: PathBuf,
        /// Output.
        #[command(flatten)]
        output: OutputArgs,
    },
    /// List jobs (the latest version of each, unless --all-versions).
    #[command(
        name = "job:list",
        visible_alias = "jobs",
        after_help = "Examples:\n  jobgraph jobs\n  jobgraph job:list --since PT24H --processing STREAMING -f csv\n  jobgraph jobs --name errors-to-vendor --all-versions -s version:desc\n  jobgraph jobs --limit 50"
    )]
    List {
        /// Only jobs in this state (repeatable or comma-separated).
        #[arg(long, value_name = "STATE", value_delimiter = ',')]
        state: Vec<String>,
        /// Only versions written since: an ISO 8601 duration before now (PT24H, P7D) or time.
        #[arg(long, value_name = "DURATION_OR_TIME")]
        since: Option<String>,
        /// Only jobs with this exact name.
        #[arg(long)]
        name: Option<String>,
        /// Every version of each job.
        #[arg(long)]
        all_versions: bool,
        /// Only BATCH or STREAMING jobs (repeatable or comma-separated).
        #[arg(long, value_enum, value_delimiter = ',', ignore_case = true)]
        processing: Vec<ProcessingArg>,
        /// Only SYNCHRONOUS or ASYNCHRONOUS jobs (repeatable or comma-separated).
        #[arg(long, value_enum, value_delimiter = ',', ignore_case = true)]
        execution: Vec<ExecutionArg>,
        /// Only these job ids (repeatable or comma-separated).
        #[arg(long, value_name = "ID", value_delimiter = ',')]
        id: Vec<String>,
        /// The resolved definitions (template operations expanded).
        #[arg(long)]
        resolved: bool,
        /// List at most N jobs [default: every page, following the service's cursors].
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        limit: Option<u64>,
        /// Output.
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Show a job (its latest version by default); -o saves it to a file as JSON.
    #[command(
        name = "job:get",
        after_help = "Examples:\n  jobgraph job:get dn1PSt2sLlfxzCOi\n  jobgraph job:get dn1PSt2sLlfxzCOi --resolved -o job.json"
    )]
    Get {
        /// The job id.
        #[arg(allow_hyphen_values = true)]
        job_id: String,
        /// This version.
        #[arg(long, value_name = "N")]
        version: Option<u64>,
        /// The resolved definition.
        #[arg(long)]
        resolved: bool,
        /// Output.
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Update a job from a file: a job file (`jobGraph`, optional `name`, `tags`,
    /// `desiredState`) or a bare graph (`vertices`, `edges`). Creates a new version.
    #[command(
        name = "job:update",
        after_help = "Example:\n  jobgraph job:update dn1PSt2sLlfxzCOi job.json --from-version 1 --rollback-enabled"
    )]
    Update {
        /// The job id.
        #[arg(allow_hyphen_values = true)]
        job_id: String,
        /// The file.
        job_file: PathBuf,
        /// Enable rollback (`?rollbackEnabled=true`).
        #[arg(long)]
        rollback_enabled: bool,
        /// Fail (409) unless the job's current version is N.
        #[arg(long, value_name = "N")]
        from_version: Option<u64>,
        /// Output.
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Watch a running job's events live: up to N events passing a vertex (its source by
    /// default), one JSON object per line on stdout as they pass. Only the replica that drives
    /// the job can tap it.
    #[command(
        name = "job:tap",
        after_help = "Examples:\n  jobgraph job:tap dn1PSt2sLlfxzCOi\n  jobgraph job:tap dn1PSt2sLlfxzCOi --vertex errors --limit 20\n  jobgraph job:tap dn1PSt2sLlfxzCOi --wait 120 | jq .message"
    )]
    Tap {
        /// The job id.
        #[arg(allow_hyphen_values = true)]
        job_id: String,
        /// The vertex whose output is sampled (default: the job's first source).
        #[arg(long, value_name = "VERTEX")]
        vertex: Option<String>,
        /// Events at most (1 to 10000).
        #[arg(long, value_name = "N", default_value_t = 100)]
        limit: u64,
        /// Seconds to listen at most (1 to 300).
        #[arg(long, value_name = "SECONDS", default_value_t = 30)]
        wait: u64,
    },
    /// Delete a job.
    #[command(
        name = "job:delete",
        after_help = "Example:\n  jobgraph job:delete dn1PSt2sLlfxzCOi"
    )]
    Delete {
        /// The job id.
        #[arg(allow_hyphen_values = true)]
        job_id: String,
    },
}

/// `BATCH` or `STREAMING`.
#[derive(Debug, Clone, Copy, ValueEnum)]
#[value(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ProcessingArg {
    /// A bounded set of data.
    Batch,
    /// Data as it arrives.
    Streaming,
}

/// `SYNCHRONOUS` or `ASYNCHRONOUS`.
#[derive(Debug, Clone, Copy, ValueEnum)]
#[value(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ExecutionArg {
    /// Streams results to the caller.
    Synchronous,
    /// Runs in the background.
    Asynchronous,
}
