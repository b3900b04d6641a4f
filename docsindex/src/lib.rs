//! The offline reference search of `jobgraph docs:search` and `docs:get`.
//!
//! The corpus (this project's Markdown reference and its OpenAPI document) is indexed when the
//! `jobgraph` binary is built (feature `build`, from `cli/build.rs`) and embedded in it; at run
//! time the index is only decoded ([`Index::decode`]) and searched ([`Index::search`]).
//!
//! Modules, each using only those above it:
//! - [`tokenize`]: words, lower case, camelCase split, stop words, English stemming — the same
//!   at build time and at search time.
//! - [`index`]: the documents, their sections and the postings, and their compact binary
//!   encoding.
//! - [`search`]: BM25 over sections (title matches weigh more), documents ranked by their best
//!   sections, previews.
//! - `build` (feature `build`): the corpus read from disk, Markdown split by heading, API
//!   operations and schemas rendered as Markdown.
//!
//! ```
//! use jobgraph_docsindex::{Builder, Index, Kind, SearchOptions};
//!
//! let mut builder = Builder::default();
//! builder.add_markdown(
//!     "doc://docs/api.md",
//!     Kind::Doc,
//!     "# API\n\nIntro.\n\n## Heartbeats\n\nPost the heartbeat token every 5 s.\n",
//! );
//! let bytes = builder.encode();
//! let index = Index::decode(&bytes).unwrap();
//! let hits = index.search("heartbeat tokens", &SearchOptions::default());
//! assert_eq!(hits[0].uri, "doc://docs/api.md");
//! assert_eq!(hits[0].sections[0].title, "Heartbeats");
//! ```

#[cfg(feature = "build")]
pub mod build;
pub mod index;
pub mod search;
pub mod tokenize;

pub use index::{Builder, DecodeError, Document, Index, Kind, Section};
pub use search::{Hit, SearchOptions, SectionHit, preview};
