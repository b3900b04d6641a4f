//! The service (`jobgraph serve`): templates, jobs and tokens over HTTP on an embedded
//! database. Behind the `server` feature (on by default).
//!
//! - [`router`] — an axum [`Router`](axum::Router) over an [`AppState`] (a [`Store`], a
//!   sandbox, [`ServiceConfig`]); mount it in any axum program.
//! - [`Store`] — the storage interface; [`SqliteStore`] implements it.
//! - [`serve`] — the `jobgraph serve` command ([`ServeArgs`]).
//! - [`openapi`] — the OpenAPI 3.1 document, generated from the handlers (served at
//!   `/openapi.json`).
//!
//! Endpoints, statuses and bodies: `docs/api.md`.
//!
//! ```no_run
//! use std::sync::Arc;
//! use jobgraph_sdk::server::{AppState, ServiceConfig, SqliteStore, Synchronous, router};
//! use jobgraph_sdk::{ProcessConfig, ProcessSandbox};
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let store = SqliteStore::open("jobgraph.db".as_ref(), Synchronous::Full, 4)?;
//! let sandbox = ProcessSandbox::start(ProcessConfig::current_exe()?);
//! let state = AppState::new(Arc::new(store), Arc::new(sandbox), ServiceConfig::default());
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! axum::serve(listener, router(state)).await?;
//! # Ok(()) }
//! ```

pub mod auth;
mod body;
pub mod config;
pub mod error;
pub mod ids;
mod jobs;
mod log;
pub mod model;
pub(crate) mod request_docs;
mod routes;
mod run;
mod scripts;
mod state;
pub mod store;
mod templates;
mod validate;

pub use config::{ClientSpec, ServeArgs};
pub use error::{ApiError, ErrorBody};
pub use routes::{openapi, router};
pub use run::{ServeError, serve};
pub use state::{AppState, ServiceConfig};
pub use store::{SqliteStore, Store, StoreError, Synchronous};
