//! The isolated execution mode: scripts run in a pool of worker processes.
//!
//! Each worker is `jobgraph sandbox-worker` (or any program that runs
//! [`crate::sandbox_worker::serve`]), driven by a dispatcher thread of its own. The dispatcher
//! writes one request per line and waits for the answer with a wall-clock deadline of the
//! script's time limit plus a quarter (never more than 1.5×); past it, the worker is killed and
//! replaced. A worker that dies (its address-space cap refused an allocation, its stack
//! overflowed) is replaced too, and the error says which limit ended it. Whatever a script
//! does, it ends one worker at most, never the caller.
//!
//! Workers start lazily and in the background: [`ProcessSandbox::start`] returns at once with
//! one worker starting, and another is started (up to [`ProcessConfig::workers`]) whenever
//! scripts are waiting and every worker is busy. [`Sandbox::parallelism`] tells the resolver
//! how many of one level's scripts to hand over at once.

mod worker;

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use futures_channel::oneshot;
use jobgraph_core::{
    LimitKind, Limits, Sandbox, ScriptFuture, ScriptInput, ScriptRequest, ScriptResult,
};

use crate::sandbox_worker::{WorkerRequest, WorkerResponse};
use worker::{Worker, death, infrastructure, limit};

/// How to start workers and how many to run at most.
#[derive(Debug, Clone)]
pub struct ProcessConfig {
    /// The worker program.
    pub program: PathBuf,
    /// Its arguments (for the `jobgraph` binary: `["sandbox-worker"]`).
    pub args: Vec<OsString>,
    /// Workers run at most (scripts run in parallel up to this number).
    pub workers: usize,
}

impl ProcessConfig {
    /// Workers that run the current executable with `sandbox-worker`: right for the `jobgraph`
    /// binary and for programs that give their own binary that subcommand. As many workers as
    /// the machine has cores.
    pub fn current_exe() -> std::io::Result<Self> {
        Ok(ProcessConfig {
            program: std::env::current_exe()?,
            args: vec!["sandbox-worker".into()],
            workers: std::thread::available_parallelism().map_or(1, usize::from),
        })
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
    /// Whether the worker was killed or died, and so was replaced.
    pub worker_replaced: bool,
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
    queue: Mutex<Queue>,
    work: Condvar,
    last: Mutex<ExecutionStats>,
}

#[derive(Debug, Default)]
struct Queue {
    jobs: VecDeque<Job>,
    /// Dispatcher threads started.
    dispatchers: usize,
    /// Dispatchers waiting for a job.
    idle: usize,
    closed: bool,
}

#[derive(Debug)]
struct Job {
    request: ScriptRequest,
    reply: oneshot::Sender<ScriptResult>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl ProcessSandbox {
    /// The pool; its first worker starts in the background.
    pub fn start(config: ProcessConfig) -> Self {
        let shared = Arc::new(Shared {
            config: ProcessConfig {
                workers: config.workers.max(1),
                ..config
            },
            queue: Mutex::new(Queue::default()),
            work: Condvar::new(),
            last: Mutex::new(ExecutionStats::default()),
        });
        let sandbox = ProcessSandbox { shared };
        sandbox.start_dispatcher(&mut lock(&sandbox.shared.queue));
        sandbox
    }

    /// Measurements of the most recent execution (on any worker).
    pub fn last_stats(&self) -> ExecutionStats {
        *lock(&self.shared.last)
    }

    /// Wall-clock allowance for a script with time limit `timeout_ms`: the limit plus a quarter
    /// (at least 10 ms), capped at 1.5× the limit.
    pub fn kill_after(timeout_ms: u64) -> Duration {
        let grace = (timeout_ms / 4).max(10).min(timeout_ms / 2 + 1);
        Duration::from_millis(timeout_ms.saturating_add(grace))
    }

    /// Runs one script in a worker, blocking the calling thread until it answers or is killed.
    pub fn run_blocking(&self, input: &ScriptInput<'_>, limits: &Limits) -> ScriptResult {
        futures_executor::block_on(self.run(*input, limits))
    }

    fn start_dispatcher(&self, queue: &mut Queue) {
        let shared = Arc::clone(&self.shared);
        let started = std::thread::Builder::new()
            .name("jobgraph-sandbox-dispatch".into())
            .spawn(move || dispatch(&shared));
        if started.is_ok() {
            queue.dispatchers += 1;
        }
    }
}

impl Drop for ProcessSandbox {
    fn drop(&mut self) {
        lock(&self.shared.queue).closed = true;
        self.shared.work.notify_all();
    }
}

impl Sandbox for ProcessSandbox {
    fn run<'a>(&'a self, input: ScriptInput<'a>, limits: &'a Limits) -> ScriptFuture<'a> {
        let (reply, answer) = oneshot::channel();
        {
            let mut queue = lock(&self.shared.queue);
            queue.jobs.push_back(Job {
                request: ScriptRequest::new(&input, limits),
                reply,
            });
            if queue.jobs.len() > queue.idle && queue.dispatchers < self.shared.config.workers {
                self.start_dispatcher(&mut queue);
            }
        }
        self.shared.work.notify_one();
        Box::pin(async move {
            answer
                .await
                .unwrap_or_else(|_| Err(infrastructure(&"the sandbox's worker pool stopped")))
        })
    }

    fn parallelism(&self) -> usize {
        self.shared.config.workers
    }
}

/// A dispatcher thread: starts its worker, then serves jobs until the pool is dropped.
fn dispatch(shared: &Shared) {
    let mut worker = Worker::spawn(&shared.config).ok();
    loop {
        let job = {
            let mut queue = lock(&shared.queue);
            loop {
                if let Some(job) = queue.jobs.pop_front() {
                    break job;
                }
                if queue.closed {
                    return;
                }
                queue.idle += 1;
                queue = shared
                    .work
                    .wait(queue)
                    .unwrap_or_else(PoisonError::into_inner);
                queue.idle -= 1;
            }
        };
        if job.reply.is_canceled() {
            continue;
        }
        let (result, stats) = execute(&shared.config, &mut worker, &job.request);
        *lock(&shared.last) = stats;
        let _ = job.reply.send(result);
        if worker.is_none() {
            // Replaced now, before the next job arrives.
            worker = Worker::spawn(&shared.config).ok();
        }
    }
}

/// Sends one request to the worker (starting one if there is none) and waits for the answer
/// until the deadline; a worker that is killed or dies is taken out of `slot`.
fn execute(
    config: &ProcessConfig,
    slot: &mut Option<Worker>,
    request: &ScriptRequest,
) -> (ScriptResult, ExecutionStats) {
    let started = Instant::now();
    let mut stats = ExecutionStats::default();
    let limits = &request.limits;
    let mut line = match serde_json::to_string(&WorkerRequest {
        request: request.clone(),
    }) {
        Ok(line) => line,
        Err(e) => return (Err(infrastructure(&e)), stats),
    };
    line.push('\n');
    let mut sent = false;
    for _attempt in 0..2 {
        let worker = match slot.take() {
            Some(worker) => worker,
            None => match Worker::spawn(config) {
                Ok(worker) => worker,
                Err(e) => return (Err(infrastructure(&e)), stats),
            },
        };
        let mut worker = worker;
        let written = worker
            .stdin
            .write_all(line.as_bytes())
            .and_then(|()| worker.stdin.flush());
        *slot = Some(worker);
        if written.is_ok() {
            sent = true;
            break;
        }
        // The worker died while idle: one retry with a fresh one.
        *slot = None;
    }
    let Some(worker) = slot.as_mut().filter(|_| sent) else {
        return (
            Err(infrastructure(
                &"the sandbox worker does not accept requests",
            )),
            stats,
        );
    };
    let deadline = started + ProcessSandbox::kill_after(limits.timeout_ms);
    let answer = worker
        .lines
        .recv_timeout(deadline.saturating_duration_since(Instant::now()));
    let response = match &answer {
        Ok(Ok(text)) => serde_json::from_str::<WorkerResponse>(text).ok(),
        _ => None,
    };
    let result = match response {
        Some(response) => {
            stats.peak_bytes = response.peak_bytes;
            response.result
        }
        // No (readable) answer: the worker is ended either way and replaced.
        None => {
            stats.worker_replaced = true;
            let timed_out = matches!(answer, Err(RecvTimeoutError::Timeout));
            if timed_out {
                // Still alive: its peak resident set is readable until the kill.
                stats.peak_bytes = worker.peak_rss();
            }
            let (stderr, status) = match slot.take() {
                Some(worker) => worker.end(),
                None => (String::new(), None),
            };
            Err(if timed_out {
                limit(limits, LimitKind::Time)
            } else {
                death(&stderr, status, limits)
            })
        }
    };
    stats.elapsed = started.elapsed();
    (result, stats)
}
