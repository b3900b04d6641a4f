//! The state every handler shares, and the service's settings.

use std::sync::Arc;
use std::time::Duration;

use jobgraph_core::{CacheLimits, ExecutionCache, ResolveOptions, Sandbox};
use serde::Deserialize;
use tokio::sync::OwnedSemaphorePermit;

use crate::error::ApiError;
use crate::guards::body_budget::BodyBudget;
use crate::guards::fair::{FairnessConfig, Gates};
use crate::guards::hash_pool::HashPool;
use crate::guards::throttle::{TokenThrottle, TokenThrottleConfig};
use crate::guards::token_cache::TokenCache;
use crate::guards::trigger_budget::{TriggerConfig, TriggerThrottle};
use crate::latest_templates::LatestTemplates;
use crate::listen::ConnectionConfig;
use crate::store::Store;
use crate::sync_stream::{Heartbeats, SyncRunConfig};

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
    /// in flight; one more waits [`FairnessConfig::script_wait_ms`] for one to end, then is a
    /// 429. Default 32.
    pub max_concurrent_scripts: usize,
    /// How every resolution goes, jobgraph-core's own settings and defaults: the limits of
    /// every script execution (`limits`), template operations one resolution may expand
    /// (`maxOperations`, 1000), the vertices and bytes of JSON its templates may produce
    /// (`maxResolvedVertices`, 100 000, and `maxResolvedBytes`, 32 MiB; a 400
    /// `MAX_RESOLVED_VERTICES_EXCEEDED` / `MAX_RESOLVED_BYTES_EXCEEDED` past them). Its `user`
    /// is always the caller's client id and `draft` is off: the `--config` file names neither.
    #[serde(flatten)]
    pub resolve: ResolveOptions,
    /// The token endpoint's budgets and secret-verification threads.
    pub token_throttle: TokenThrottleConfig,
    /// Timeouts and caps of connections and request bodies.
    pub connections: ConnectionConfig,
    /// Limits of `POST /v1/triggers`, which needs no token.
    pub triggers: TriggerConfig,
    /// Sizes of stored fields and bounds of listing pages.
    pub field_limits: crate::guards::field_limits::FieldLimits,
    /// How organizations share the service: requests served at once and waits in line.
    pub fairness: FairnessConfig,
    /// Heartbeats of synchronous runs (`syncRuns`).
    pub sync_runs: SyncRunConfig,
    /// The integrations `/v1/integrations` lists (`integrations` of the `--config` file).
    pub integrations: Vec<crate::integration_spec::IntegrationSpec>,
    /// Where the data lake is and its limits (`lake`).
    pub lake: crate::lake_config::LakeConfig,
    /// How asynchronous jobs run (`runner`).
    pub runner: crate::runs::RunnerConfig,
    /// How agents' logs are taken (`intake`).
    pub intake: crate::intake_config::IntakeConfig,
    /// Who may log in, and for how long (`login`).
    pub login: crate::login_config::LoginConfig,
}

impl Default for ServiceConfig {
    fn default() -> Self {
        ServiceConfig {
            token_ttl_seconds: 86_400,
            max_body_bytes: 10 * 1024 * 1024,
            max_concurrent_scripts: 32,
            resolve: ResolveOptions::default(),
            token_throttle: TokenThrottleConfig::default(),
            connections: ConnectionConfig::default(),
            triggers: TriggerConfig::default(),
            field_limits: Default::default(),
            fairness: FairnessConfig::default(),
            sync_runs: SyncRunConfig::default(),
            integrations: Vec::new(),
            lake: crate::lake_config::LakeConfig::default(),
            runner: crate::runs::RunnerConfig::default(),
            intake: crate::intake_config::IntakeConfig::default(),
            login: crate::login_config::LoginConfig::default(),
        }
    }
}

/// What the handlers share: cheap to clone.
///
/// Cloned for every request (axum's `State`), so it is one `Arc` of [`SharedState`], which it
/// dereferences to: `state.store`, `state.config`, ….
#[derive(Clone)]
pub struct AppState {
    shared: Arc<SharedState>,
}

impl std::ops::Deref for AppState {
    type Target = SharedState;
    fn deref(&self) -> &SharedState {
        &self.shared
    }
}

/// What every handler shares, behind [`AppState`].
#[derive(Clone)]
pub struct SharedState {
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
    /// Latest-version answers of templates read recently (while this process alone writes).
    pub(crate) latest_templates: LatestTemplates,
    /// The token endpoint's budgets.
    pub(crate) throttle: Arc<TokenThrottle>,
    /// The threads that verify client secrets.
    pub(crate) secrets: Arc<HashPool>,
    /// The budget of request bodies held in memory.
    pub(crate) bodies: BodyBudget,
    /// The budgets of triggers per address and organization.
    pub(crate) triggers: Arc<TriggerThrottle>,
    /// Requests each organization has being served (the `Caller` extractor enters).
    pub(crate) requests: Gates,
    slots: Gates,
    /// Per-organization places for synchronous runs that use the lake (held until the run
    /// ends, not only while its request is read).
    pub(crate) lake_runs: Gates,
    /// Heartbeat tokens of the synchronous runs in progress.
    pub(crate) heartbeats: Arc<Heartbeats>,
    /// The data lake, when the service has one ([`AppState::with_lake`]).
    pub(crate) lake: Option<Arc<jobgraph_lake::Lake>>,
    /// The runs this replica drives, and the signals that wake its runner.
    pub(crate) runs: Arc<crate::runs::Runs>,
    /// What agents sent, until the pipelines read it ([`AppState::with_intake`]).
    pub(crate) intake: Option<crate::intake_log::Intake>,
    /// What each integration's intake took and refused.
    pub(crate) intake_stats: Arc<crate::intake_stats::IntakeStats>,
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
        let bodies = BodyBudget::new(config.connections.max_buffered_body_bytes);
        let triggers = Arc::new(TriggerThrottle::new(&config.triggers));
        let fairness = &config.fairness;
        let shared = SharedState {
            requests: Gates::new(
                fairness.requests(),
                Duration::from_millis(fairness.request_wait_ms),
                "requests being served",
            ),
            lake_runs: Gates::new(
                fairness.lake_runs(),
                Duration::from_millis(fairness.request_wait_ms),
                "synchronous runs reading or writing the lake",
            ),
            slots: Gates::new(
                config.max_concurrent_scripts,
                Duration::from_millis(fairness.script_wait_ms),
                "requests running scripts",
            ),
            throttle: Arc::new(TokenThrottle::new(throttle)),
            secrets: Arc::new(HashPool::start(throttle.threads(), throttle.hash_queue)),
            latest_templates: LatestTemplates::new(store.sole_writer()),
            store,
            sandbox,
            cache: ExecutionCache::new(CacheLimits::default()),
            config: Arc::new(config),
            tokens: TokenCache::default(),
            bodies,
            triggers,
            heartbeats: Arc::default(),
            lake: None,
            runs: Arc::default(),
            intake: None,
            intake_stats: Arc::default(),
        };
        AppState {
            shared: Arc::new(shared),
        }
    }

    /// The same state with a data lake: datasets can be loaded, queried and written by jobs.
    pub fn with_lake(mut self, lake: jobgraph_lake::Lake) -> Self {
        Arc::make_mut(&mut self.shared).lake = Some(Arc::new(lake));
        self
    }

    /// The same state with an intake log: agents' logs are taken and jobs read them.
    pub fn with_intake(mut self, log: crate::intake_log::Intake) -> Self {
        Arc::make_mut(&mut self.shared).intake = Some(log);
        self
    }

    /// A slot for one request that runs scripts for `organization`: it waits in line
    /// [`FairnessConfig::script_wait_ms`] at most while the organization has
    /// [`ServiceConfig::max_concurrent_scripts`] in flight, then is a 429.
    pub async fn script_slot(&self, organization: &str) -> Result<OwnedSemaphorePermit, ApiError> {
        self.slots.enter(organization).await
    }
}
