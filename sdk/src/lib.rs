//! # jobgraph-sdk
//!
//! Local tooling around `jobgraph-core`: a [`DirectorySource`] that reads templates from a
//! folder, the isolated execution mode [`ProcessSandbox`] (scripts in a pool of worker
//! processes, see `docs/sandbox.md`), the `jobgraph` command-line client, and, with the
//! `server` feature (on by default), the service behind `jobgraph serve` ([`server`]).

#![warn(missing_docs)]

pub mod api;
#[cfg(feature = "client")]
pub mod client;
pub mod directory;
pub mod process_sandbox;
pub mod sandbox_worker;
#[cfg(feature = "server")]
pub mod server;

pub use directory::{DirectorySource, LoadError};
pub use process_sandbox::{ExecutionStats, ProcessConfig, ProcessSandbox};
