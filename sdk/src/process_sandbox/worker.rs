//! One worker process of the pool: started with its pipes, its answers read as bounded lines,
//! ended, and the cause of its death told from its last words.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;

use jobgraph_core::{LimitKind, Limits, ScriptError, ScriptFailure};

use super::ProcessConfig;
use crate::sandbox_worker::MAX_MEMORY_ENV;

/// What the reader thread saw on a worker's stdout.
#[derive(Debug)]
pub(super) enum Frame {
    /// One line (newline removed); `more` when bytes after it had already arrived.
    Line { text: String, more: bool },
    /// A line longer than the bound set for the current request: nothing more is read.
    TooLong,
    /// The pipe closed (the worker died) or could not be read.
    Closed,
}

#[derive(Debug)]
pub(super) struct Worker {
    child: Child,
    pub stdin: ChildStdin,
    pub frames: Receiver<Frame>,
    /// Longest line the reader accepts, set before each request.
    pub bound: Arc<AtomicUsize>,
    /// The `maxMemoryBytes` its address-space cap was fixed for.
    pub memory: u64,
    /// Address space left under its cap after its last request, when it said.
    pub room: Option<u64>,
    stderr: Option<JoinHandle<String>>,
}

/// Reads lines of at most `bound` bytes from `stdout` and sends them, until the pipe closes, a
/// line is too long or nobody listens.
fn read_frames(stdout: ChildStdout, bound: &AtomicUsize, send: &Sender<Frame>) {
    let mut reader = BufReader::with_capacity(64 * 1024, stdout);
    let mut line: Vec<u8> = Vec::new();
    loop {
        let (consumed, complete) = match reader.fill_buf() {
            Ok([]) | Err(_) => {
                let _ = send.send(Frame::Closed);
                return;
            }
            Ok(available) => match available.iter().position(|&b| b == b'\n') {
                Some(end) => {
                    line.extend_from_slice(&available[..end]);
                    (end + 1, true)
                }
                None => {
                    line.extend_from_slice(available);
                    (available.len(), false)
                }
            },
        };
        reader.consume(consumed);
        if line.len() > bound.load(Ordering::Acquire) {
            let _ = send.send(Frame::TooLong);
            return;
        }
        if complete {
            let text = String::from_utf8_lossy(&line).into_owned();
            line.clear();
            let more = !reader.buffer().is_empty();
            if send.send(Frame::Line { text, more }).is_err() {
                return;
            }
        }
    }
}
/// What a worker writes first when it could not confine itself (`sandbox_worker::serve`).
const UNCONFINED: &str = "jobgraph sandbox-worker: ";

/// Passes a worker's warning that it runs without its system-call filter on to this process's
/// stderr (once per process: every worker of a host that refuses the filter says the same), so
/// that whoever runs the CLI or the service sees it.
fn pass_on_warning(kept: &[u8]) {
    static SAID: std::sync::Once = std::sync::Once::new();
    if !kept.starts_with(UNCONFINED.as_bytes()) || SAID.is_completed() {
        return;
    }
    if let Some(end) = kept.iter().position(|&b| b == b'\n') {
        SAID.call_once(|| eprintln!("{}", String::from_utf8_lossy(&kept[..end])));
    }
}

/// What the parent keeps of a worker's stderr: the beginning, where the allocator or runtime
/// says why it stopped.
const STDERR_KEPT: usize = 4096;

impl Worker {
    /// Starts a worker whose address-space cap is fixed for scripts of at most `memory` bytes.
    pub fn spawn(config: &ProcessConfig, memory: u64) -> std::io::Result<Worker> {
        let mut child = Command::new(&config.program)
            .args(&config.args)
            // Nothing of the parent's environment: it can hold the database URL with its
            // password (`JOBGRAPH_DATABASE_URL`) or a client secret, which code that took over
            // the worker could read from its own memory without a system call.
            .env_clear()
            // Its last words must be the reason, not a backtrace.
            .env("RUST_BACKTRACE", "0")
            .env("RUST_LIB_BACKTRACE", "0")
            // mimalloc (the `jobgraph` binary's allocator) reserves 1 GiB of address space up
            // front, which would make the address-space cap meaningless.
            .env("MIMALLOC_ARENA_RESERVE", "0")
            .env(MAX_MEMORY_ENV, memory.to_string())
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
        let (send, frames) = channel();
        let bound = Arc::new(AtomicUsize::new(0));
        let reader_bound = Arc::clone(&bound);
        std::thread::Builder::new()
            .name("jobgraph-worker-stdout".into())
            .spawn(move || read_frames(stdout, &reader_bound, &send))?;
        let stderr = std::thread::Builder::new()
            .name("jobgraph-worker-stderr".into())
            .spawn(move || {
                let mut kept = Vec::new();
                let mut buf = [0u8; 1024];
                let mut stderr = stderr;
                while let Ok(n @ 1..) = stderr.read(&mut buf) {
                    let room = STDERR_KEPT.saturating_sub(kept.len());
                    kept.extend_from_slice(&buf[..n.min(room)]);
                    pass_on_warning(&kept);
                }
                String::from_utf8_lossy(&kept).into_owned()
            })?;
        Ok(Worker {
            child,
            stdin,
            frames,
            bound,
            memory,
            room: None,
            stderr: Some(stderr),
        })
    }

    /// The worker's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Peak resident set size of the worker, from `/proc` (Linux), else 0.
    pub fn peak_rss(&self) -> u64 {
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
    pub fn end(mut self) -> (String, Option<std::process::ExitStatus>) {
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

pub(super) fn limit(limits: &Limits, kind: LimitKind) -> ScriptError {
    ScriptError::Failed(ScriptFailure::limit(limits.hit(kind)))
}

pub(super) fn infrastructure(e: &dyn std::fmt::Display) -> ScriptError {
    ScriptError::Failed(ScriptFailure::infrastructure(format!(
        "the sandbox worker could not be used: {e}"
    )))
}

/// Why a worker died, from its last words: an allocation its address-space cap refused is the
/// memory limit, an overflowed stack the recursion limit; anything else is reported as is.
pub(super) fn death(
    stderr: &str,
    status: Option<std::process::ExitStatus>,
    limits: &Limits,
) -> ScriptError {
    if stderr.contains("memory allocation of") || stderr.contains("out of memory") {
        return limit(limits, LimitKind::Memory);
    }
    // A segmentation fault in a worker is its script stack's guard page: boa recursing natively
    // (the parser over operator chains, `JSON.stringify` or `flat` over deep structures).
    if stderr.contains("has overflowed its stack") || killed_by_segfault(status) {
        return limit(limits, LimitKind::Recursion);
    }
    let how = status.map_or_else(|| "unknown status".to_owned(), |s| s.to_string());
    // The first line that is not the warning about running unconfined (said at start).
    let said = stderr
        .lines()
        .find(|line| !line.starts_with(UNCONFINED))
        .unwrap_or("")
        .trim();
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
