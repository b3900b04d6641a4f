//! The isolated execution mode: scripts run in a pool of pre-started worker processes.
//!
//! Each worker is `jobgraph sandbox-worker` (or any program that runs
//! [`crate::sandbox_worker::serve`]). The parent writes one request per line and waits for the
//! answer with a wall-clock deadline of the script's time limit plus a quarter (never more than
//! 1.5×); past it, the worker is killed and replaced. A worker that dies (its address-space cap
//! refused an allocation, its stack overflowed) is replaced too, and the error says which limit
//! ended it. Whatever a script does, it ends one worker at most, never the caller.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use jobgraph_core::{
    LimitKind, Limits, Sandbox, ScriptError, ScriptFailure, ScriptInput, ScriptRequest,
};
use serde_json::Value;

use crate::sandbox_worker::{WorkerRequest, WorkerResponse};

/// How to start workers and how many to keep ready.
#[derive(Debug, Clone)]
pub struct ProcessConfig {
    /// The worker program.
    pub program: PathBuf,
    /// Its arguments (for the `jobgraph` binary: `["sandbox-worker"]`).
    pub args: Vec<OsString>,
    /// Workers started ahead of time (more are started when all are busy).
    pub workers: usize,
}

impl ProcessConfig {
    /// Workers that run the current executable with `sandbox-worker`: right for the `jobgraph`
    /// binary and for programs that give their own binary that subcommand.
    pub fn current_exe() -> std::io::Result<Self> {
        Ok(ProcessConfig {
            program: std::env::current_exe()?,
            args: vec!["sandbox-worker".into()],
            workers: 1,
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
/// use jobgraph_core::{Limits, ResolveOptions, TemplateSet, ready_now, resolve_document_with};
/// use jobgraph_sdk::{ProcessConfig, ProcessSandbox};
/// let sandbox = ProcessSandbox::start(ProcessConfig::current_exe()?)?;
/// let job = serde_json::json!({"vertices": [], "edges": []});
/// let (resolved, _) = ready_now(resolve_document_with(
///     &job, &TemplateSet::new(), &sandbox, &ResolveOptions::default()))?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct ProcessSandbox {
    config: ProcessConfig,
    idle: Arc<Mutex<Vec<Worker>>>,
    last: Mutex<ExecutionStats>,
}

#[derive(Debug)]
struct Worker {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<std::io::Result<String>>,
    stderr: Option<JoinHandle<String>>,
}

/// What the parent keeps of a worker's stderr: the beginning, where the allocator or runtime
/// says why it stopped.
const STDERR_KEPT: usize = 4096;

impl Worker {
    fn spawn(config: &ProcessConfig) -> std::io::Result<Worker> {
        let mut child = Command::new(&config.program)
            .args(&config.args)
            // Its last words must be the reason, not a backtrace.
            .env("RUST_BACKTRACE", "0")
            .env("RUST_LIB_BACKTRACE", "0")
            // mimalloc (the `jobgraph` binary's allocator) reserves 1 GiB of address space up
            // front, which would make the address-space cap meaningless.
            .env("MIMALLOC_ARENA_RESERVE", "0")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(std::io::Error::other("the worker's pipes were not created"));
        };
        let (send, lines) = channel();
        std::thread::Builder::new()
            .name("jobgraph-worker-stdout".into())
            .spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    if send.send(line).is_err() {
                        break;
                    }
                }
            })?;
        let stderr = std::thread::Builder::new()
            .name("jobgraph-worker-stderr".into())
            .spawn(move || {
                let mut kept = Vec::new();
                let mut buf = [0u8; 1024];
                let mut stderr = stderr;
                while let Ok(n @ 1..) = stderr.read(&mut buf) {
                    let room = STDERR_KEPT.saturating_sub(kept.len());
                    kept.extend_from_slice(&buf[..n.min(room)]);
                }
                String::from_utf8_lossy(&kept).into_owned()
            })?;
        Ok(Worker {
            child,
            stdin,
            lines,
            stderr: Some(stderr),
        })
    }

    /// Peak resident set size of the worker, from `/proc` (Linux), else 0.
    fn peak_rss(&self) -> u64 {
        let path = format!("/proc/{}/status", self.child.id());
        std::fs::read_to_string(path)
            .ok()
            .and_then(|status| {
                let line = status.lines().find(|l| l.starts_with("VmHWM:"))?.to_owned();
                line.split_whitespace().nth(1)?.parse::<u64>().ok()
            })
            .map_or(0, |kib| kib * 1024)
    }

    /// Kills the worker and returns what it wrote on stderr.
    fn end(mut self) -> (String, Option<std::process::ExitStatus>) {
        let _ = self.child.kill();
        let status = self.child.wait().ok();
        let stderr = self
            .stderr
            .take()
            .and_then(|h| h.join().ok())
            .unwrap_or_default();
        (stderr, status)
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl ProcessSandbox {
    /// Starts `config.workers` workers and returns the pool.
    pub fn start(config: ProcessConfig) -> std::io::Result<Self> {
        let workers = (0..config.workers)
            .map(|_| Worker::spawn(&config))
            .collect::<std::io::Result<Vec<_>>>()?;
        Ok(ProcessSandbox {
            config,
            idle: Arc::new(Mutex::new(workers)),
            last: Mutex::new(ExecutionStats::default()),
        })
    }

    /// Measurements of the most recent execution (on any thread).
    pub fn last_stats(&self) -> ExecutionStats {
        *self.last.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Wall-clock allowance for a script with time limit `timeout_ms`: the limit plus a quarter
    /// (at least 10 ms), capped at 1.5× the limit.
    pub fn kill_after(timeout_ms: u64) -> Duration {
        let grace = (timeout_ms / 4).max(10).min(timeout_ms / 2 + 1);
        Duration::from_millis(timeout_ms.saturating_add(grace))
    }

    fn take_worker(&self) -> std::io::Result<Worker> {
        let ready = self
            .idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        match ready {
            Some(worker) => Ok(worker),
            None => Worker::spawn(&self.config),
        }
    }

    fn give_back(&self, worker: Worker) {
        self.idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(worker);
    }

    /// Starts a replacement worker in the background, so the next request finds one ready.
    fn replace_in_background(&self) {
        let config = self.config.clone();
        let idle = Arc::clone(&self.idle);
        let _ = std::thread::Builder::new()
            .name("jobgraph-worker-spawn".into())
            .spawn(move || {
                if let Ok(worker) = Worker::spawn(&config) {
                    idle.lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .push(worker);
                }
            });
    }

    /// Runs one script in a worker, blocking the calling thread until it answers or is killed.
    pub fn run_blocking(
        &self,
        input: &ScriptInput<'_>,
        limits: &Limits,
    ) -> Result<Value, ScriptError> {
        let started = Instant::now();
        let mut worker = self.take_worker().map_err(|e| infrastructure(&e))?;
        let mut line = serde_json::to_string(&WorkerRequest {
            request: ScriptRequest::new(input, limits),
        })
        .map_err(|e| infrastructure(&e))?;
        line.push('\n');
        if let Err(e) = worker
            .stdin
            .write_all(line.as_bytes())
            .and_then(|()| worker.stdin.flush())
        {
            // The worker died while idle; one retry with a fresh one.
            drop(worker);
            worker = Worker::spawn(&self.config).map_err(|e| infrastructure(&e))?;
            worker
                .stdin
                .write_all(line.as_bytes())
                .and_then(|()| worker.stdin.flush())
                .map_err(|_| infrastructure(&e))?;
        }
        let deadline = started + Self::kill_after(limits.timeout_ms);
        let answer = worker
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()));
        let response = match &answer {
            Ok(Ok(text)) => serde_json::from_str::<WorkerResponse>(text).ok(),
            _ => None,
        };
        let mut stats = ExecutionStats::default();
        let result = match response {
            Some(response) => {
                stats.peak_bytes = response.peak_bytes;
                self.give_back(worker);
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
                let (stderr, status) = worker.end();
                self.replace_in_background();
                Err(if timed_out {
                    limit(limits, LimitKind::Time)
                } else {
                    death(&stderr, status, limits)
                })
            }
        };
        stats.elapsed = started.elapsed();
        *self.last.lock().unwrap_or_else(PoisonError::into_inner) = stats;
        result
    }
}

fn limit(limits: &Limits, kind: LimitKind) -> ScriptError {
    ScriptError::Failed(ScriptFailure::limit(limits.hit(kind)))
}

fn infrastructure(e: &dyn std::fmt::Display) -> ScriptError {
    ScriptError::Failed(ScriptFailure {
        message: format!("the sandbox worker could not be used: {e}"),
        line: None,
        column: None,
        limit: None,
    })
}

/// Why a worker died, from its last words: an allocation its address-space cap refused is the
/// memory limit, an overflowed stack the recursion limit; anything else is reported as is.
fn death(stderr: &str, status: Option<std::process::ExitStatus>, limits: &Limits) -> ScriptError {
    if stderr.contains("memory allocation of") || stderr.contains("out of memory") {
        return limit(limits, LimitKind::Memory);
    }
    // A segmentation fault in a worker is its script stack's guard page: boa recursing natively
    // (the parser over operator chains, `JSON.stringify` or `flat` over deep structures).
    if stderr.contains("has overflowed its stack") || killed_by_segfault(status) {
        return limit(limits, LimitKind::Recursion);
    }
    let how = status.map_or_else(|| "unknown status".to_owned(), |s| s.to_string());
    let said = stderr.lines().next().unwrap_or("").trim();
    ScriptError::Failed(ScriptFailure {
        message: format!(
            "the sandbox worker ended unexpectedly ({how}){}",
            if said.is_empty() {
                String::new()
            } else {
                format!(": {said}")
            }
        ),
        line: None,
        column: None,
        limit: None,
    })
}

#[cfg(unix)]
fn killed_by_segfault(status: Option<std::process::ExitStatus>) -> bool {
    use std::os::unix::process::ExitStatusExt;
    const SIGSEGV: i32 = 11;
    const SIGBUS: i32 = 7;
    matches!(status.and_then(|s| s.signal()), Some(SIGSEGV | SIGBUS))
}

#[cfg(not(unix))]
fn killed_by_segfault(_status: Option<std::process::ExitStatus>) -> bool {
    false
}

impl Sandbox for ProcessSandbox {
    fn run(
        &self,
        input: &ScriptInput<'_>,
        limits: &Limits,
    ) -> impl Future<Output = Result<Value, ScriptError>> {
        std::future::ready(self.run_blocking(input, limits))
    }
}
