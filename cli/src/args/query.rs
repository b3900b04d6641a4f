//! The options of `query`: a dataset, a time range, a query, a limit.

use clap::Args;

use super::OutputArgs;

/// `query`.
#[derive(Args)]
#[command(group(clap::ArgGroup::new("dataset").required(true).args(["dataset_id", "dataset_name"])))]
pub struct QueryArgs {
    /// The dataset to read, by identifier (`jobgraph datasets` lists them).
    #[arg(long, value_name = "ID")]
    pub dataset_id: Option<String>,
    /// The dataset to read, by name.
    #[arg(long, value_name = "NAME")]
    pub dataset_name: Option<String>,
    /// Start of the time range, ISO 8601 (`2026-11-25T10:00:00Z`), inclusive [default: 10
    /// minutes before --end].
    #[arg(long, value_name = "TIME")]
    pub start: Option<String>,
    /// End of the time range, ISO 8601, exclusive [default: now].
    #[arg(long, value_name = "TIME")]
    pub end: Option<String>,
    /// Which events: the query language of docs/pipeline.md (`service:checkout AND
    /// (level:warn OR level:error)`) [default: every event].
    #[arg(long, value_name = "QUERY")]
    pub query: Option<String>,
    /// Events at most.
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: u64,
    /// Output.
    #[command(flatten)]
    pub output: OutputArgs,
}
