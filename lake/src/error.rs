//! The crate's error.

/// What went wrong in the lake, naming the object or setting involved.
#[derive(Debug, thiserror::Error)]
pub enum LakeError {
    /// The scan's next fetch would have passed its byte budget; that fetch was not made.
    #[error(
        "the scan stopped at {scanned} bytes: its next read would pass the budget of {budget} bytes (narrow the time range or tags, or raise the budget)"
    )]
    ScanBudget {
        /// Bytes fetched so far.
        scanned: u64,
        /// The budget.
        budget: u64,
    },
    /// An organization, dataset, table or run id unfit for an object path; the message states
    /// the rule ([`jobgraph_model::names::PATH_NAME_RULE`]).
    #[error("{0} (it would be part of a lake path)")]
    InvalidId(jobgraph_model::names::NameError),
    /// A lake URL that cannot be opened.
    #[error("lake URL {url:?}: {reason}")]
    BadUrl {
        /// The URL, without secrets.
        url: String,
        /// What is wrong and how to fix it.
        reason: String,
    },
    /// Object storage failed on a path.
    #[error("object storage failed on {path}: {source}")]
    Store {
        /// The object path (relative to the lake root) or prefix.
        path: String,
        /// The store's error.
        source: object_store::Error,
    },
    /// Parquet encoding or decoding failed on a file.
    #[error("Parquet failed on {path}: {source}")]
    Parquet {
        /// The object path.
        path: String,
        /// The Parquet error.
        source: parquet::errors::ParquetError,
    },
    /// Arrow failed to build columns for a file.
    #[error("Arrow failed on {path}: {source}")]
    Arrow {
        /// The object path.
        path: String,
        /// The Arrow error.
        source: arrow_schema::ArrowError,
    },
    /// A file's rows do not read back as events (not a file of this lake, or damaged).
    #[error("{path} does not hold lake events: {problem}")]
    Event {
        /// The object path.
        path: String,
        /// What is wrong.
        problem: String,
    },
    /// A local file-system operation failed.
    #[error("{path}: {source}")]
    Io {
        /// The local path.
        path: String,
        /// The error.
        source: std::io::Error,
    },
}
