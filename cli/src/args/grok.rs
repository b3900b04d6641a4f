//! `grok:parse`: grok rules tried on sample lines.

use std::path::PathBuf;

use clap::Args;

use super::OutputArgs;

/// `grok:parse`.
#[derive(Args)]
pub struct GrokParseArgs {
    /// A parsing rule, `RuleName pattern` (repeat for several, tried in order; the first that
    /// matches the whole line wins), or @FILE with one rule per line.
    #[arg(short = 'p', long, value_name = "RULE_OR_@FILE", required = true)]
    pub pattern: Vec<String>,
    /// A sample line to parse (repeat for several).
    #[arg(long, value_name = "LINE")]
    pub sample: Vec<String>,
    /// A file of sample lines, one per line (`-`: stdin); blank lines are skipped.
    #[arg(long, value_name = "FILE")]
    pub samples_file: Option<PathBuf>,
    /// Helper rules, `name pattern` per line, usable as `%{name}` in the rules: the text, or
    /// @FILE.
    #[arg(long, value_name = "RULES_OR_@FILE")]
    pub helper_rules: Option<String>,
    /// The attribute a pipeline reads the line from (sent with --remote; here every sample is
    /// the line itself) [default: message].
    #[arg(long, value_name = "NAME")]
    pub extract_attribute: Option<String>,
    /// Parse in the service (`POST /v1/grok/parse/batch`) instead of here.
    #[arg(long)]
    pub remote: bool,
    /// Output.
    #[command(flatten)]
    pub output: OutputArgs,
}
