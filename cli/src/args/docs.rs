//! The options of the offline reference search: `docs:search` and `docs:get`.

use clap::{Args, ValueEnum};

/// Which documents: `-t doc|api|schema|all`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DocType {
    /// The Markdown reference (`doc://<path>`).
    Doc,
    /// The API's operations (`api://<operationId>`).
    Api,
    /// The API's schemas (`schema://<Name>`).
    Schema,
    /// Every document.
    All,
}

/// How `docs:search` prints its results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SearchFormat {
    /// For reading: each document's URI, score, matching sections and a preview.
    Pretty,
    /// Indented JSON: `[{score, uri, sections: [{title, preview}]}]`.
    Json,
    /// The same JSON on one line.
    Compact,
}

/// `docs:search`.
#[derive(Debug, Args)]
pub struct DocsSearchArgs {
    /// The words to look for (several words make one query).
    #[arg(required = true, value_name = "QUERY")]
    pub query: Vec<String>,
    /// Documents at most.
    #[arg(
        short = 'l',
        long,
        value_name = "N",
        default_value_t = 5,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..)
    )]
    pub limit: usize,
    /// Which documents to search.
    #[arg(short = 't', long = "type", value_enum, default_value_t = DocType::Doc)]
    pub kind: DocType,
    /// Output format.
    #[arg(short = 'f', long, value_enum, default_value_t = SearchFormat::Pretty)]
    pub format: SearchFormat,
    /// Characters of each preview (then `…`).
    #[arg(short = 'p', long, value_name = "CHARS", default_value_t = 400)]
    pub preview: usize,
}

/// `docs:get`.
#[derive(Debug, Args)]
pub struct DocsGetArgs {
    /// The document: `doc://docs/api.md`, `api://issueToken`, `schema://ErrorBody`, …
    #[arg(required_unless_present = "list", value_name = "URI")]
    pub uri: Option<String>,
    /// List every document's URI instead (with -t, those of one type).
    #[arg(long, conflicts_with = "uri")]
    pub list: bool,
    /// With --list: which documents.
    #[arg(short = 't', long = "type", value_enum, default_value_t = DocType::All)]
    pub kind: DocType,
}
