//! # jobgraph-sdk
//!
//! The client side of jobgraph: what a Rust program needs to talk to the service and to run
//! template scripts isolated, without the service itself or the command line. Its default
//! features need no script engine: the job graph's data comes from `jobgraph-model`; the
//! script engine (`jobgraph-core`) comes only with the feature `sandbox`.
//!
//! - [`client`] (feature `client`, on by default): the typed API client of `jobgraph serve`,
//!   OAuth 2.0 tokens with an optional [`TokenStore`](client::TokenStore), and
//!   [`RemoteSource`](client::RemoteSource), templates fetched from the service.
//! - [`DirectorySource`]: templates from a folder.
//! - `ProcessSandbox` (feature `sandbox`): scripts in a pool of confined worker processes
//!   (`docs/sandbox.md`); `sandbox_worker` is the workers' side, which a program calls from
//!   its own binary.
//! - [`api`]: the request and response types of the service's API, shared with the service
//!   (`jobgraph_model::api`); [`to_test`], a job's test job.
//!
//! Its default dependency tree has no HTTP server, database driver, password hashing,
//! OpenAPI generator or command-line parser: the service is `jobgraph-server`, the `jobgraph`
//! command line `jobgraph-cli`.
//!
//! ## Running scripts isolated from your own program (feature `sandbox`)
//!
//! A `ProcessSandbox` starts worker processes: a program that answers one argument by
//! calling `sandbox_worker::serve`. This crate ships one, `jobgraph-sandbox-worker`
//! (`cargo install jobgraph-sdk`), and the `jobgraph` binary answers `jobgraph sandbox-worker`.
//! Or give your own binary the subcommand, with the counting allocator that enforces
//! `maxMemoryBytes`:
//!
//! ```ignore
//! #[global_allocator]
//! static ALLOCATOR: jobgraph_core::memory::CountingAllocator<std::alloc::System> =
//!     jobgraph_core::memory::CountingAllocator::new(std::alloc::System);
//!
//! fn main() -> std::io::Result<()> {
//!     if std::env::args().nth(1).as_deref() == Some("sandbox-worker") {
//!         return jobgraph_sdk::sandbox_worker::serve();
//!     }
//!     // … the program; its sandbox runs this same binary:
//!     let sandbox = jobgraph_sdk::ProcessSandbox::start(jobgraph_sdk::ProcessConfig::current_exe()?);
//!     # drop(sandbox);
//!     Ok(())
//! }
//! ```

#![warn(missing_docs)]

pub use jobgraph_model::api;
#[cfg(feature = "client")]
pub mod client;
pub mod directory;
#[cfg(feature = "sandbox")]
pub mod process_sandbox;
#[cfg(feature = "sandbox")]
pub mod sandbox_worker;
mod test_run_id;
pub use jobgraph_model::to_test;

pub use directory::{DirectorySource, LoadError};
#[cfg(feature = "sandbox")]
pub use process_sandbox::{
    ExecutionStats, PoolStats, ProcessConfig, ProcessSandbox, TenantSandbox,
};
pub use test_run_id::random_test_run_id;
pub use to_test::{TestSink, ToTestError, ToTestOptions, job_to_test};
