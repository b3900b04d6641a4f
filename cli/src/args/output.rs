//! The output options every result-producing command takes.

use clap::{Args, ValueEnum};

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Bordered table at most 80 columns wide; a single result as field/value rows.
    Table,
    /// Comma-separated values with a header row; nested values as JSON.
    Csv,
    /// Indented JSON.
    Pretty,
    /// One single-line JSON record per line.
    Raw,
    /// The whole result as single-line JSON.
    Compact,
}

/// The output options of result-producing commands.
#[derive(Debug, Clone, Args)]
pub struct OutputArgs {
    /// Output format [default: table; pretty for documents and with -o].
    #[arg(short = 'f', long, value_enum)]
    pub format: Option<Format>,
    /// Sort records by a column: `column:asc` or `column:desc` (several: comma-separated;
    /// dotted paths such as `tags.createdUsing` reach inside) [default: id:asc].
    #[arg(short = 's', long = "sort", value_name = "COLUMN:ORDER")]
    pub sort: Option<String>,
    /// table and csv: nested objects are spread into `a.b` columns down to this depth (1:
    /// none; they are shown as JSON).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub max_depth: usize,
    /// table: lines shown per cell before `...` (0: all).
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub max_lines: usize,
    /// Leave out timestamp fields (createdAt, updatedAt, …).
    #[arg(long)]
    pub no_timestamps: bool,
    /// table and csv: the columns to show, comma-separated, or `all` [default: table, a
    /// summary per kind of record; csv, all].
    #[arg(short = 'c', long, value_name = "COLUMNS", value_delimiter = ',')]
    pub columns: Vec<String>,
    /// Do not print job state markers (`[CONNECTING]` …) on stderr.
    #[arg(long)]
    pub no_job_state: bool,
}
