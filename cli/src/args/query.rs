//! The options of `query`: a dataset, a time range, a query, a limit.

use clap::{Args, ValueEnum};

use super::OutputArgs;

/// `query`.
#[derive(Args)]
#[command(group(clap::ArgGroup::new("dataset").required(true).args(["dataset_id", "dataset_name"])))]
pub struct QueryArgs {
    /// The dataset to read, by identifier (`jobgraph dataset:list` lists them).
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
    /// Which events the service reads first, so which ones `--limit` keeps: `unsorted` (file
    /// order, the fastest), `asc` (the oldest of the range) or `desc` (the newest). Output is
    /// still sorted by `-s` (default `eventTimestamp:asc`) except with `-f raw`, which prints
    /// in the service's order.
    #[arg(long, value_enum, value_name = "ORDER", default_value_t = ScanOrder::Unsorted)]
    pub order: ScanOrder,
    /// Output.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `--order`: the source's `sortOrder`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ScanOrder {
    /// File order (`UNSORTED`), what the public client sends.
    Unsorted,
    /// Oldest first (`ASCENDING`).
    Asc,
    /// Newest first (`DESCENDING`).
    Desc,
}

impl ScanOrder {
    /// The `sortOrder` value the service reads.
    pub fn sort_order(self) -> &'static str {
        match self {
            ScanOrder::Unsorted => "UNSORTED",
            ScanOrder::Asc => "ASCENDING",
            ScanOrder::Desc => "DESCENDING",
        }
    }
}
