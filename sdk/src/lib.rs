//! # jobgraph-sdk
//!
//! Local tooling around `jobgraph-core`: a [`DirectorySource`] that reads templates from a
//! folder, and the `jobgraph` command-line client.

pub mod directory;

pub use directory::{DirectorySource, LoadError};
