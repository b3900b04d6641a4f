//! The state every handler shares, and the service's settings.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use jobgraph_core::{CacheLimits, ExecutionCache, Limits, Sandbox};
use serde::Deserialize;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::error::ApiError;
use super::hash_pool::HashPool;
use super::store::Store;
use super::throttle::{TokenThrottle, TokenThrottleConfig};
use super::token_cache::TokenCache;

/// Settings of the service (the router's, not the listener's). JSON names are camelCase;
/// missing fields take the default.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ServiceConfig {
    /// Lifetime of an access token, in seconds. Default 86400.
    pub token_ttl_seconds: u64,
    /// Largest request body, in bytes (413 past it). Default 10 MiB.
    pub max_body_bytes: usize,
    /// Requests that run scripts (tests, job creations and updates) one organization may have
    /// in flight; one more is a 429. Default 32.
    pub max_concurrent_scripts: usize,
    /// Limits of every script execution.
    pub limits: Limits,
    /// Template operations one resolution may expand. Default 1000.
    pub max_operations: usize,
    /// Vertices the templates of one resolution may produce (`maxResolvedVertices`; a 400
    /// `MAX_RESOLVED_VERTICES_EXCEEDED` past it). Default 100 000.
    pub max_resolved_vertices: usize,
    /// Bytes of JSON the templates of one resolution may produce (`maxResolvedBytes`; a 400
    /// `MAX_RESOLVED_BYTES_EXCEEDED` past it). Default 32 MiB.
    pub max_resolved_bytes: usize,
    /// The token endpoint's budgets and secret-verification threads.
    pub token_throttle: TokenThrottleConfig,
}

impl Default for ServiceConfig {
    fn default() -> Self {
        ServiceConfig {
            token_ttl_seconds: 86_400,
            max_body_bytes: 10 * 1024 * 1024,
            max_concurrent_scripts: 32,
            limits: Limits::default(),
            max_operations: jobgraph_core::ResolveOptions::default().max_operations,
            max_resolved_vertices: jobgraph_core::ResolveOptions::default().max_resolved_vertices,
            max_resolved_bytes: jobgraph_core::ResolveOptions::default().max_resolved_bytes,
            token_throttle: TokenThrottleConfig::default(),
        }
    }
}

/// What the handlers share: cheap to clone.
#[derive(Clone)]
pub struct AppState {
    /// Where everything is kept.
    pub store: Arc<dyn Store>,
    /// Where scripts run (the isolated process pool in `jobgraph serve`).
    pub sandbox: Arc<dyn Sandbox>,
    /// Results of template executions, shared by every request.
    pub cache: ExecutionCache,
    /// Settings.
    pub config: Arc<ServiceConfig>,
    /// Tokens already checked.
    pub(crate) tokens: TokenCache,
    /// The token endpoint's budgets.
    pub(crate) throttle: Arc<TokenThrottle>,
    /// The threads that verify client secrets.
    pub(crate) secrets: Arc<HashPool>,
    slots: ScriptSlots,
}

impl std::fmt::Debug for AppState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppState")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl AppState {
    /// State over a store and a sandbox. Starts the secret-verification threads
    /// ([`TokenThrottleConfig::threads`]); they stop when the last clone is dropped.
    pub fn new(store: Arc<dyn Store>, sandbox: Arc<dyn Sandbox>, config: ServiceConfig) -> Self {
        let throttle = &config.token_throttle;
        AppState {
            throttle: Arc::new(TokenThrottle::new(throttle)),
            secrets: Arc::new(HashPool::start(throttle.threads(), throttle.hash_queue)),
            store,
            sandbox,
            cache: ExecutionCache::new(CacheLimits::default()),
            config: Arc::new(config),
            tokens: TokenCache::default(),
            slots: ScriptSlots::default(),
        }
    }

    /// A slot for one request that runs scripts for `organization`, or a 429 when it has
    /// [`ServiceConfig::max_concurrent_scripts`] in flight already.
    pub fn script_slot(&self, organization: &str) -> Result<OwnedSemaphorePermit, ApiError> {
        let max = self.config.max_concurrent_scripts.max(1);
        let semaphore = {
            let mut slots = self.slots.0.lock().unwrap_or_else(PoisonError::into_inner);
            Arc::clone(
                slots
                    .entry(organization.to_owned())
                    .or_insert_with(|| Arc::new(Semaphore::new(max))),
            )
        };
        semaphore
            .try_acquire_owned()
            .map_err(|_| ApiError::TooManyRequests {
                message: format!(
                    "organization {organization:?} already has {max} requests running scripts; retry later"
                ),
                retry_after: 1,
            })
    }
}

/// One semaphore per organization.
#[derive(Clone, Default)]
struct ScriptSlots(Arc<Mutex<HashMap<String, Arc<Semaphore>>>>);
