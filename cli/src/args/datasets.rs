//! `dataset:*` and `integration:*`.

use std::path::PathBuf;

use clap::Subcommand;

use super::OutputArgs;

/// `dataset:*`.
#[derive(Subcommand)]
pub enum DatasetCommand {
    /// Create a dataset from a JSON file: `name` (required), `description`, `partitioning`
    /// (HOUR, DAY, MONTH, YEAR), `retentionDays`, `promotedTags`.
    #[command(
        name = "dataset:create",
        after_help = "Examples:\n  jobgraph dataset:create web-logs.json\n  echo '{\"name\":\"web-logs\",\"partitioning\":\"DAY\",\"retentionDays\":30}' > web-logs.json && jobgraph dataset:create web-logs.json -f pretty"
    )]
    Create {
        /// The dataset file (JSON; `id`, `version` and times, if any, are ignored).
        dataset_file: PathBuf,
        /// Output.
        #[command(flatten)]
        output: OutputArgs,
    },
    /// List the organization's datasets.
    #[command(
        name = "dataset:list",
        visible_alias = "datasets",
        after_help = "Examples:\n  jobgraph datasets\n  jobgraph dataset:list -f csv -c id,name,partitioning\n  jobgraph dataset:list --limit 20"
    )]
    List {
        /// List at most N datasets [default: every page, following the service's cursors].
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        limit: Option<u64>,
        /// Output.
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Show a dataset.
    #[command(
        name = "dataset:get",
        after_help = "Examples:\n  jobgraph dataset:get DWa28F4NkgpCzt3n\n  jobgraph dataset:get DWa28F4NkgpCzt3n -f pretty -o web-logs.json"
    )]
    Get {
        /// The dataset id.
        #[arg(allow_hyphen_values = true)]
        dataset_id: String,
        /// Output.
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Update a dataset from a JSON file: every field is replaced (absent ones take their
    /// defaults); partitioning and promoted tags apply to files written afterwards.
    #[command(
        name = "dataset:update",
        after_help = "Examples:\n  jobgraph dataset:update DWa28F4NkgpCzt3n web-logs.json\n  jobgraph dataset:update DWa28F4NkgpCzt3n web-logs.json --expected-version 2"
    )]
    Update {
        /// The dataset id.
        #[arg(allow_hyphen_values = true)]
        dataset_id: String,
        /// The dataset file (JSON).
        dataset_file: PathBuf,
        /// Fail (409) unless the dataset's current version is N.
        #[arg(long, value_name = "N")]
        expected_version: Option<u64>,
        /// Output.
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Delete a dataset: its metadata only; the data files stay where they are.
    #[command(
        name = "dataset:delete",
        after_help = "Example:\n  jobgraph dataset:delete DWa28F4NkgpCzt3n"
    )]
    Delete {
        /// The dataset id.
        #[arg(allow_hyphen_values = true)]
        dataset_id: String,
    },
    /// Load events into a dataset from an NDJSON file (one event per line): streamed to the
    /// service, written as Parquet files partitioned by time, committed at once when the whole
    /// file is in (a bad line loads nothing and names the line). Progress on stderr.
    #[command(
        name = "dataset:load",
        after_help = "Examples:\n  jobgraph dataset:load DWa28F4NkgpCzt3n events.ndjson\n  jobgraph dataset:load DWa28F4NkgpCzt3n audit.ndjson --table audit -f pretty\n  zcat logs.ndjson.gz > /tmp/logs.ndjson && jobgraph dataset:load DWa28F4NkgpCzt3n /tmp/logs.ndjson -q"
    )]
    Load {
        /// The dataset id.
        #[arg(allow_hyphen_values = true)]
        dataset_id: String,
        /// The events: NDJSON, one JSON object per line.
        file: PathBuf,
        /// The dataset's table to write [default: logs].
        #[arg(long, value_name = "TABLE")]
        table: Option<String>,
        /// Output.
        #[command(flatten)]
        output: OutputArgs,
    },
    /// List a dataset's committed data files (path, table, rows, bytes, time range): what
    /// DuckDB and other tools read.
    #[command(
        name = "dataset:files",
        after_help = "Examples:\n  jobgraph dataset:files DWa28F4NkgpCzt3n\n  jobgraph dataset:files DWa28F4NkgpCzt3n -f csv -c path   # a header, then one path a line\n  jobgraph dataset:files DWa28F4NkgpCzt3n --limit 20"
    )]
    Files {
        /// The dataset id.
        #[arg(allow_hyphen_values = true)]
        dataset_id: String,
        /// List at most N files [default: every page, following the service's cursors].
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        limit: Option<u64>,
        /// Output.
        #[command(flatten)]
        output: OutputArgs,
    },
}

/// `integration:*`.
#[derive(Subcommand)]
pub enum IntegrationCommand {
    /// List the integrations the organization sees, with the jobs that use each.
    #[command(
        name = "integration:list",
        visible_alias = "integrations",
        after_help = "Examples:\n  jobgraph integration:list\n  jobgraph integration:list -f csv"
    )]
    List {
        /// Output.
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Show an integration and the jobs that use it.
    #[command(
        name = "integration:get",
        after_help = "Examples:\n  jobgraph integration:get splunk-prod\n  jobgraph integration:get splunk-prod -f pretty"
    )]
    Get {
        /// The integration id.
        #[arg(allow_hyphen_values = true)]
        integration_id: String,
        /// Output.
        #[command(flatten)]
        output: OutputArgs,
    },
}
