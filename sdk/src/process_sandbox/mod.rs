//! The isolated execution mode: scripts run in a pool of worker processes.
//!
//! Each worker is `jobgraph sandbox-worker` (or any program that runs
//! [`crate::sandbox_worker::serve`]). A dispatcher thread writes one request per line, with a
//! fresh random id, and waits for the answer that echoes it, with a wall-clock deadline of the
//! script's time limit plus a quarter (never more than 1.5×) and a size bound of the output
//! limit plus [`crate::sandbox_worker::ANSWER_FRAMING`]; past either, the worker is killed. A
//! worker that dies (its address-space cap refused an allocation, its stack overflowed) is
//! replaced too, and the error says which limit ended it. A worker that answers with another
//! id, answers twice or writes before it is asked is ended and fails only that request. A
//! worker never serves a script after one that hit a limit. Whatever a script does, it ends
//! one worker at most, never the caller.
//!
//! **Tenants.** A worker is bound for life to the first tenant it serves: scripts of one
//! organization of the service ([`ProcessSandbox::for_tenant`], the service's way in) never
//! run in a process that ran another's, so code that took a worker over sees only its own
//! organization's later inputs. Jobs are served round robin over tenants, and a tenant runs at
//! most all workers but one at once (at least one): another tenant's next script finds a worker
//! free instead of waiting for a slow script to end. Idle workers of a
//! tenant are retired after [`ProcessConfig::idle_timeout`], and past
//! [`ProcessConfig::kept_workers`] the one unused longest. The library and the CLI use the
//! pool directly: one tenant.
//!
//! Workers start lazily and in the background: [`ProcessSandbox::start`] returns at once with
//! one worker starting, and another dispatcher is started (up to [`ProcessConfig::workers`])
//! whenever scripts are waiting and every dispatcher is busy. [`Sandbox::parallelism`] tells
//! the resolver how many of one level's scripts to hand over at once.

mod exchange;
mod pool;
mod worker;

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use futures_channel::oneshot;
use jobgraph_core::{Limits, Sandbox, ScriptFuture, ScriptInput, ScriptRequest, ScriptResult};

use pool::{Job, State, Tenant, dispatch};
use worker::infrastructure;

/// How to start workers, how many to run at once and how many to keep.
#[derive(Debug, Clone)]
pub struct ProcessConfig {
    /// The worker program.
    pub program: PathBuf,
    /// Its arguments (for the `jobgraph` binary: `["sandbox-worker"]`).
    pub args: Vec<OsString>,
    /// Workers run at most (scripts run in parallel up to this number).
    pub workers: usize,
    /// Worker processes kept at most, idle ones included (at least `workers` + 1): with
    /// tenants, each organization keeps its own; past this, the idle one unused longest is
    /// retired. [`ProcessConfig::new`]: 64.
    pub kept_workers: usize,
    /// An idle worker bound to a tenant is retired after this long unused.
    /// [`ProcessConfig::new`]: 60 s.
    pub idle_timeout: Duration,
}

impl ProcessConfig {
    /// Workers of `program` started with `args`, as many at once as the machine has cores,
    /// 64 kept, retired after 60 s idle.
    pub fn new(program: impl Into<PathBuf>, args: Vec<OsString>) -> Self {
        ProcessConfig {
            program: program.into(),
            args,
            workers: std::thread::available_parallelism().map_or(1, usize::from),
            kept_workers: 64,
            idle_timeout: Duration::from_secs(60),
        }
    }

    /// Workers that run the current executable with `sandbox-worker`: right for the `jobgraph`
    /// binary and for programs that give their own binary that subcommand. As many workers as
    /// the machine has cores.
    pub fn current_exe() -> std::io::Result<Self> {
        Ok(ProcessConfig::new(
            std::env::current_exe()?,
            vec!["sandbox-worker".into()],
        ))
    }
}

/// Measurements of one execution in a [`ProcessSandbox`].
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ExecutionStats {
    /// Wall-clock time from sending the request to the answer (or the kill).
    pub elapsed: Duration,
    /// Peak bytes the script allocated, as the worker counted them; for a worker killed at
    /// the deadline, its peak resident set size instead; 0 for a worker that died (bounded by
    /// its address-space cap).
    pub peak_bytes: u64,
    /// Whether the worker was killed, died or was retired after this execution (a limit, a
    /// broken protocol), and so will be replaced.
    pub worker_replaced: bool,
    /// Process id of the worker that ran it (0 when none did).
    pub worker_pid: u32,
}

/// Counts of a [`ProcessSandbox`]'s workers since it started.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PoolStats {
    /// Worker processes started.
    pub started: u64,
    /// Worker processes ended: killed at a limit, dead, broken, retired idle or for room.
    pub retired: u64,
    /// Scripts waiting for a worker now.
    pub waiting: usize,
}

/// The isolated [`Sandbox`]: a pool of worker processes.
///
/// ```no_run
/// use jobgraph_core::{Resolver, TemplateSet};
/// use jobgraph_sdk::{ProcessConfig, ProcessSandbox};
/// let sandbox = ProcessSandbox::start(ProcessConfig::current_exe()?);
/// let resolver = Resolver::builder(TemplateSet::new()).sandbox(sandbox).build();
/// let job = serde_json::json!({"vertices": [], "edges": []});
/// let resolved = resolver.resolve_document_blocking(&job)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct ProcessSandbox {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    config: ProcessConfig,
    state: Mutex<State>,
    work: Condvar,
    last: Mutex<ExecutionStats>,
    started: AtomicU64,
    retired: AtomicU64,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl ProcessSandbox {
    /// The pool; its first worker starts in the background.
    pub fn start(config: ProcessConfig) -> Self {
        let workers = config.workers.max(1);
        let shared = Arc::new(Shared {
            config: ProcessConfig {
                workers,
                kept_workers: config.kept_workers.max(workers + 1),
                ..config
            },
            state: Mutex::new(State::default()),
            work: Condvar::new(),
            last: Mutex::new(ExecutionStats::default()),
            started: AtomicU64::new(0),
            retired: AtomicU64::new(0),
        });
        start_dispatcher(&shared, &mut lock(&shared.state));
        ProcessSandbox { shared }
    }

    /// Measurements of the most recent execution (on any worker).
    pub fn last_stats(&self) -> ExecutionStats {
        *lock(&self.shared.last)
    }

    /// Workers started and ended so far.
    pub fn pool_stats(&self) -> PoolStats {
        PoolStats {
            started: self.shared.started.load(Ordering::Relaxed),
            retired: self.shared.retired.load(Ordering::Relaxed),
            waiting: lock(&self.shared.state).pending,
        }
    }

    /// Wall-clock allowance for a script with time limit `timeout_ms`: the limit plus a quarter
    /// (at least 10 ms), capped at 1.5× the limit.
    pub fn kill_after(timeout_ms: u64) -> Duration {
        let grace = (timeout_ms / 4).max(10).min(timeout_ms / 2 + 1);
        Duration::from_millis(timeout_ms.saturating_add(grace))
    }

    /// Runs one script in a worker, blocking the calling thread until it answers or is killed.
    pub fn run_blocking(&self, input: &ScriptInput<'_>, limits: &Limits) -> ScriptResult {
        self.run_measured(&TenantSandbox::library(), input, limits)
            .0
    }

    /// Runs one script for `tenant` (see [`ProcessSandbox::for_tenant`]), blocking the calling
    /// thread: its result and measurements (which worker ran it, among others).
    pub fn run_for_tenant_blocking(
        &self,
        tenant: &str,
        input: &ScriptInput<'_>,
        limits: &Limits,
    ) -> (ScriptResult, ExecutionStats) {
        self.run_measured(&Arc::from(tenant), input, limits)
    }

    fn run_measured(
        &self,
        tenant: &Tenant,
        input: &ScriptInput<'_>,
        limits: &Limits,
    ) -> (ScriptResult, ExecutionStats) {
        let answer = submit(&self.shared, tenant, input, limits);
        futures_executor::block_on(answer).unwrap_or_else(|_| (Err(stopped()), Default::default()))
    }

    /// The pool for the scripts of one tenant (an organization of a service): they only ever
    /// run in workers bound to it. The same as [`Sandbox::for_tenant`].
    pub fn tenant(&self, tenant: &str) -> TenantSandbox {
        TenantSandbox {
            shared: Arc::clone(&self.shared),
            tenant: Arc::from(tenant),
        }
    }
}

fn stopped() -> jobgraph_core::ScriptError {
    infrastructure(&"the sandbox's worker pool stopped")
}

fn start_dispatcher(shared: &Arc<Shared>, state: &mut State) {
    let shared = Arc::clone(shared);
    let started = std::thread::Builder::new()
        .name("jobgraph-sandbox-dispatch".into())
        .spawn(move || dispatch(&shared));
    if started.is_ok() {
        state.dispatchers += 1;
    }
}

/// Queues a script for `tenant`, starting a dispatcher when every one is busy.
fn submit(
    shared: &Arc<Shared>,
    tenant: &Tenant,
    input: &ScriptInput<'_>,
    limits: &Limits,
) -> oneshot::Receiver<(ScriptResult, ExecutionStats)> {
    let (reply, answer) = oneshot::channel();
    {
        let mut state = lock(&shared.state);
        state.push(Job {
            tenant: Arc::clone(tenant),
            request: ScriptRequest::new(input, limits),
            reply,
        });
        if state.pending > state.waiting && state.dispatchers < shared.config.workers {
            start_dispatcher(shared, &mut state);
        }
    }
    shared.work.notify_one();
    answer
}

fn run_in<'a>(
    shared: &Arc<Shared>,
    tenant: &Tenant,
    input: ScriptInput<'a>,
    limits: &'a Limits,
) -> ScriptFuture<'a> {
    let answer = submit(shared, tenant, &input, limits);
    Box::pin(async move {
        answer
            .await
            .map_or_else(|_| Err(stopped()), |(result, _)| result)
    })
}

impl Drop for ProcessSandbox {
    fn drop(&mut self) {
        lock(&self.shared.state).closed = true;
        self.shared.work.notify_all();
    }
}

impl Sandbox for ProcessSandbox {
    fn run<'a>(&'a self, input: ScriptInput<'a>, limits: &'a Limits) -> ScriptFuture<'a> {
        run_in(&self.shared, &TenantSandbox::library(), input, limits)
    }

    fn parallelism(&self) -> usize {
        self.shared.config.workers
    }

    fn for_tenant(&self, tenant: &str) -> Option<Arc<dyn Sandbox>> {
        Some(Arc::new(self.tenant(tenant)))
    }
}

/// The pool seen by one tenant ([`ProcessSandbox::tenant`]): its scripts run only in workers
/// bound to that tenant.
#[derive(Debug, Clone)]
pub struct TenantSandbox {
    shared: Arc<Shared>,
    tenant: Tenant,
}

impl TenantSandbox {
    /// The tenant of the library's and the CLI's direct use of the pool.
    fn library() -> Tenant {
        Arc::from("")
    }
}

impl Sandbox for TenantSandbox {
    fn run<'a>(&'a self, input: ScriptInput<'a>, limits: &'a Limits) -> ScriptFuture<'a> {
        run_in(&self.shared, &self.tenant, input, limits)
    }

    fn parallelism(&self) -> usize {
        pool::tenant_share(&self.tenant, self.shared.config.workers)
    }
}
