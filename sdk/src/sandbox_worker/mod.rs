//! The child side of [`crate::ProcessSandbox`]: a loop that reads one [`WorkerRequest`] per line
//! on stdin, runs the script in-process and writes one [`WorkerResponse`] per line on stdout.
//!
//! `jobgraph sandbox-worker` runs [`serve`]; an embedder with its own binary can call it from a
//! hidden subcommand in the same way. The worker caps its own address space before every
//! request (so a single huge allocation fails inside the worker, which then dies, instead of
//! taking the machine's memory), disables core dumps, and ends when stdin closes. On Linux it
//! confines itself with a seccomp filter before reading its first request (`confine`): from
//! then on it cannot open a file, connect, start a program or touch another process.

#[cfg(target_os = "linux")]
mod confine;

use std::io::{BufRead, Write};
use std::time::Instant;

use jobgraph_core::{ScriptError, ScriptFailure, ScriptRequest, ScriptResult, run_script};
use serde::{Deserialize, Serialize};

/// Room the worker keeps above `maxMemoryBytes` in its address space: the 64 MiB script stack,
/// the allocator's reservations and the result's JSON text.
pub const ADDRESS_SPACE_HEADROOM: u64 = 128 * 1024 * 1024;

/// Bytes a script may allocate past `maxMemoryBytes` before an allocation fails in the worker
/// (see [`jobgraph_core::memory::set_ceiling`]): room for the sandbox's own check, made between
/// slices of execution, to stop the script first with an error that names its line.
pub const ALLOCATION_SLACK: u64 = 16 * 1024 * 1024;

/// One line on the worker's stdin.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkerRequest {
    /// The script, its inputs and limits.
    pub request: ScriptRequest,
}

/// One line on the worker's stdout.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkerResponse {
    /// What [`run_script`] returned.
    pub result: ScriptResult,
    /// Highest number of bytes the execution had allocated at once (0 without a counting
    /// allocator).
    pub peak_bytes: u64,
    /// Time the execution took inside the worker, in microseconds.
    pub micros: u64,
}

/// Serves requests from stdin until it closes. Returns the I/O error that ended it, if any.
pub fn serve() -> std::io::Result<()> {
    disable_core_dumps();
    #[cfg(target_os = "linux")]
    confine::close_inherited_descriptors();
    // Opened before the filter, which allows reading it but no new file.
    let status = ProcStatus::open();
    #[cfg(target_os = "linux")]
    if let Err(e) = confine::confine() {
        eprintln!("jobgraph sandbox-worker: {e}; scripts run without system-call confinement");
    }
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    let mut line = String::new();
    loop {
        line.clear();
        if stdin.lock().read_line(&mut line)? == 0 {
            return Ok(());
        }
        let response = match serde_json::from_str::<WorkerRequest>(&line) {
            Ok(WorkerRequest { request }) => {
                cap_address_space(&status, request.limits.max_memory_bytes);
                execute(&request)
            }
            Err(e) => refusal(format!(
                "the sandbox worker received a malformed request: {e}"
            )),
        };
        // Encoding fails only for what JSON cannot hold; say so instead of going silent.
        let mut text = serde_json::to_string(&response).or_else(|e| {
            serde_json::to_string(&refusal(format!(
                "the sandbox worker could not encode its answer: {e}"
            )))
        })?;
        text.push('\n');
        stdout.write_all(text.as_bytes())?;
        stdout.flush()?;
    }
}

/// An answer that is a failure of the worker itself, not of a script.
fn refusal(message: String) -> WorkerResponse {
    WorkerResponse {
        result: Err(ScriptError::Failed(ScriptFailure::infrastructure(message))),
        peak_bytes: 0,
        micros: 0,
    }
}

fn execute(request: &ScriptRequest) -> WorkerResponse {
    let started = Instant::now();
    let before = jobgraph_core::memory::live_bytes();
    // Past the script's cap and some slack (so that the sandbox's own check, which names the
    // line, fires first whenever it can), an allocation fails and the worker dies of it.
    let allowance = request
        .limits
        .max_memory_bytes
        .saturating_add(ALLOCATION_SLACK);
    jobgraph_core::memory::set_ceiling(Some(
        before.saturating_add(isize::try_from(allowance).unwrap_or(isize::MAX)),
    ));
    let mut result = run_script(&request.input(), &request.limits);
    if jobgraph_core::memory::ceiling_hit() {
        // The engine survived the failed allocation (it threw a `RangeError` the script may
        // even have caught): whatever the script did next, it went past its memory.
        let hit = request.limits.hit(jobgraph_core::LimitKind::Memory);
        result = Err(ScriptError::Failed(ScriptFailure::limit(hit)));
    }
    jobgraph_core::memory::set_ceiling(None);
    let peak = jobgraph_core::memory::peak_bytes().saturating_sub(before);
    WorkerResponse {
        result,
        peak_bytes: u64::try_from(peak).unwrap_or(0),
        micros: u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX),
    }
}

/// Sets the soft address-space limit to what is mapped now plus `max_memory_bytes` and
/// [`ADDRESS_SPACE_HEADROOM`]. Best effort: where it cannot be read or set, the counting cap
/// still applies.
fn cap_address_space(status: &ProcStatus, max_memory_bytes: u64) {
    #[cfg(target_os = "linux")]
    if let Some(mapped) = status.mapped_bytes() {
        let soft = mapped
            .saturating_add(max_memory_bytes)
            .saturating_add(ADDRESS_SPACE_HEADROOM);
        let _ = rlimit::setrlimit(rlimit::Resource::AS, soft, rlimit::INFINITY);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (status, max_memory_bytes);
}

/// `/proc/self/status`, opened once (the confined worker can open no file) and read again from
/// its start for every request.
struct ProcStatus(Option<std::fs::File>);

impl ProcStatus {
    fn open() -> Self {
        #[cfg(target_os = "linux")]
        let file = std::fs::File::open("/proc/self/status").ok();
        #[cfg(not(target_os = "linux"))]
        let file = None;
        ProcStatus(file)
    }

    /// The process's mapped address space (`VmSize`), in bytes.
    #[cfg(target_os = "linux")]
    fn mapped_bytes(&self) -> Option<u64> {
        use std::os::unix::fs::FileExt;
        let file = self.0.as_ref()?;
        let mut buffer = [0u8; 8192];
        let mut len = 0;
        while len < buffer.len() {
            match file.read_at(&mut buffer[len..], len as u64) {
                Ok(0) => break,
                Ok(n) => len += n,
                Err(_) => return None,
            }
        }
        let text = std::str::from_utf8(&buffer[..len]).ok()?;
        let line = text.lines().find(|l| l.starts_with("VmSize:"))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib * 1024)
    }
}

fn disable_core_dumps() {
    #[cfg(unix)]
    let _ = rlimit::setrlimit(rlimit::Resource::CORE, 0, 0);
}
