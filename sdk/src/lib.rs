//! # jobgraph-sdk
//!
//! Local tooling around `jobgraph-core`: a [`DirectorySource`] that reads templates from a
//! folder, the isolated execution mode [`ProcessSandbox`] (scripts in a pool of worker
//! processes, see `docs/sandbox.md`), and the `jobgraph` command-line client.

pub mod directory;
pub mod process_sandbox;
pub mod sandbox_worker;

pub use directory::{DirectorySource, LoadError};
pub use process_sandbox::{ExecutionStats, ProcessConfig, ProcessSandbox};
