//! `patterns`: the log patterns of a file, found with a reducer's settings.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::OutputArgs;

/// How the lines of the file are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LineFormat {
    /// A line that reads as a JSON object is an event (its `message`); any other line is a
    /// message.
    Auto,
    /// Every line is a message.
    Text,
    /// Every line is a JSON event; a line that is not one is an error.
    Ndjson,
}

/// `patterns`.
#[derive(Args)]
pub struct PatternsArgs {
    /// The log file: one message or JSON event per line (`-`: stdin).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The reducer's settings (a `log-reducer` vertex's fields, e.g.
    /// '{"similarityThreshold": 60}'), or @FILE holding them [default: the reducer's defaults].
    #[arg(long, value_name = "JSON_OR_@FILE")]
    pub config: Option<String>,
    /// How lines are read.
    #[arg(long, value_enum, default_value_t = LineFormat::Auto)]
    pub lines: LineFormat,
    /// Show the N most frequent patterns (0: all found, up to 500).
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub top: usize,
    /// Also write each line's pattern id to FILE, one per line in input order (`-` for a line
    /// without a pattern): for scoring a grouping against labels.
    #[arg(long, value_name = "FILE")]
    pub ids_out: Option<PathBuf>,
    /// Output.
    #[command(flatten)]
    pub output: OutputArgs,
}
