//! # jobgraph-server
//!
//! The jobgraph service as a library: templates, jobs and tokens over HTTP on SQLite or
//! PostgreSQL. `jobgraph serve` (crate `jobgraph-cli`) runs it; any Rust program can mount it.
//!
//! - [`router`] — an axum [`Router`](axum::Router) over an [`AppState`] (a [`Store`], a
//!   sandbox, [`ServiceConfig`]); mount it in any axum program.
//! - [`Store`] — the storage interface; [`SqliteStore`] implements it, and `PostgresStore`
//!   with the `postgres` feature (on by default).
//! - [`serve`] — what `jobgraph serve` runs ([`ServeOptions`]): settings, database, clients,
//!   sandbox pool, listener, graceful stop.
//! - [`openapi`] — the OpenAPI 3.1 document, generated from the handlers (served at
//!   `/openapi.json`).
//!
//! Endpoints, statuses and bodies: `docs/api.md`.
//!
//! ```no_run
//! use std::sync::Arc;
//! use jobgraph_server::{AppState, ServiceConfig, SqliteStore, Synchronous, router};
//! use jobgraph_sdk::{ProcessConfig, ProcessSandbox};
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let store = SqliteStore::open("jobgraph.db".as_ref(), Synchronous::Full, 4)?;
//! // Scripts run in worker processes: this program must answer `sandbox-worker` by calling
//! // `jobgraph_sdk::sandbox_worker::serve()` (see that module).
//! let sandbox = ProcessSandbox::start(ProcessConfig::current_exe()?);
//! let state = AppState::new(Arc::new(store), Arc::new(sandbox), ServiceConfig::default());
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! // With the peer's address, the token endpoint keeps a budget per address (docs/api.md).
//! let app = router(state).into_make_service_with_connect_info::<std::net::SocketAddr>();
//! axum::serve(listener, app).await?;
//! # Ok(()) }
//! ```

#![warn(missing_docs)]

pub mod access;
pub mod admin;
pub mod auth;
mod body;
pub mod config;
mod endpoints;
pub mod error;
mod guards;
pub mod ids;
pub mod intake_config;
pub mod intake_log;
pub mod intake_stats;
pub mod integration_spec;
mod lake;
mod lake_config;
mod latest_templates;
mod layers;
mod listen;
pub mod log_writer;
pub mod login;
pub mod login_config;
pub mod model;
mod routes;
mod runner;
mod runs;
mod serve;
mod state;
pub mod store;
pub mod sync_stream;
mod validate;

pub use config::{ClientSpec, ServeOptions};
pub use error::{ApiError, ErrorBody};
pub use guards::field_limits::FieldLimits;
pub use guards::secrets::hash_secret;
pub use guards::throttle::TokenThrottleConfig;
pub use guards::trigger_budget::TriggerConfig;
pub use guards::{fair, field_limits, throttle};
pub use lake_config::LakeConfig;
pub use listen::ConnectionConfig;
pub use routes::{openapi, router};
pub use serve::{ServeError, serve};
pub use state::{AppState, ServiceConfig, SharedState};
pub use store::{SqliteStore, Store, StoreError, Synchronous};
