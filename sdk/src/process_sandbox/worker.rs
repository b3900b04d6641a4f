//! One worker process of the pool: started with its pipes, read with a deadline, ended, and
//! the cause of its death told from its last words.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::thread::JoinHandle;

use jobgraph_core::{LimitKind, Limits, ScriptError, ScriptFailure};

use super::ProcessConfig;

#[derive(Debug)]
pub(super) struct Worker {
    child: Child,
    pub stdin: ChildStdin,
    pub lines: Receiver<std::io::Result<String>>,
    stderr: Option<JoinHandle<String>>,
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
    pub fn spawn(config: &ProcessConfig) -> std::io::Result<Worker> {
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
                    pass_on_warning(&kept);
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
