//! The child side of [`crate::ProcessSandbox`]: a loop that reads one [`WorkerRequest`] per line
//! on stdin, runs the script in-process and writes one [`WorkerResponse`] per line on stdout,
//! echoing the request's id.
//!
//! `jobgraph sandbox-worker` runs [`serve`]; an embedder with its own binary can call it from a
//! hidden subcommand in the same way. Before reading its first request the worker hardens
//! itself, once and for the rest of its life: it closes every inherited descriptor but stdin,
//! stdout and stderr, prepares its script realm and stack, then fixes its resource limits —
//! soft and hard — (address space: what it has mapped, plus the memory it was started for
//! ([`MAX_MEMORY_ENV`]) and [`ADDRESS_SPACE_HEADROOM`]; no new descriptor; no new process; no
//! core dump), makes itself non-dumpable, and on Linux applies a seccomp filter (`confine`): from
//! then on it cannot open a file, connect, start a program, touch another process or change a
//! limit. A step that fails is said on stderr in one line that the parent passes on. The worker
//! ends when stdin closes.

#[cfg(feature = "attack-hooks")]
mod attack;
#[cfg(target_os = "linux")]
mod confine;
mod harden;

use std::io::{BufRead, Write};
use std::time::Instant;

use jobgraph_core::{Limits, ScriptError, ScriptFailure, ScriptRequest, ScriptResult, run_script};
use serde::{Deserialize, Serialize};

use harden::ProcStatus;

/// Room the worker keeps above `maxMemoryBytes` in its address space: the allocator's
/// reservations, the result's JSON text and growth of the engine's own tables between scripts.
pub const ADDRESS_SPACE_HEADROOM: u64 = 128 * 1024 * 1024;

/// Bytes a script may allocate past `maxMemoryBytes` before an allocation fails in the worker
/// (see [`jobgraph_core::memory::set_ceiling`]): room for the sandbox's own check, made between
/// slices of execution, to stop the script first with an error that names its line.
pub const ALLOCATION_SLACK: u64 = 16 * 1024 * 1024;

/// Bytes an answer line may hold beyond the script's `maxOutputBytes`: the envelope (id,
/// measurements) and an error message (at most 1 000 characters, escaped). A worker never
/// writes more (a larger answer becomes the output limit's error); the parent reads no more
/// and ends a worker that tries.
pub const ANSWER_FRAMING: usize = 64 * 1024;

/// Environment variable that tells a starting worker the `maxMemoryBytes` it will serve at
/// most: its address-space cap is fixed from it before the first request and can never be
/// raised. Without it, [`Limits::default`]'s.
pub const MAX_MEMORY_ENV: &str = "JOBGRAPH_SANDBOX_MAX_MEMORY_BYTES";

/// Longest answer line a worker may write for a script with `limits`, newline excluded.
pub fn answer_bound(limits: &Limits) -> usize {
    limits.max_output_bytes.saturating_add(ANSWER_FRAMING)
}

/// One line on the worker's stdin.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkerRequest {
    /// A fresh random number the answer must echo: an answer written before the request was
    /// read (by code that took the worker over) cannot carry it.
    pub id: u64,
    /// The script, its inputs and limits.
    pub request: ScriptRequest,
}

/// One line on the worker's stdout.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkerResponse {
    /// The id of the request this answers.
    pub id: u64,
    /// What [`run_script`] returned.
    pub result: ScriptResult,
    /// Highest number of bytes the execution had allocated at once (0 without a counting
    /// allocator).
    pub peak_bytes: u64,
    /// Time the execution took inside the worker, in microseconds.
    pub micros: u64,
    /// Address space left under the worker's fixed cap after the execution, when known: the
    /// pool retires a worker that has too little left for the next script's memory limit.
    #[serde(default)]
    pub room_bytes: Option<u64>,
}

/// Serves requests from stdin until it closes. Returns the I/O error that ended it, if any.
pub fn serve() -> std::io::Result<()> {
    let max_memory = std::env::var(MAX_MEMORY_ENV)
        .ok()
        .and_then(|value| value.parse::<u64>().ok())
        .unwrap_or(Limits::default().max_memory_bytes);
    let (status, cap) = harden::harden(max_memory);
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    let mut line = String::new();
    loop {
        line.clear();
        if stdin.lock().read_line(&mut line)? == 0 {
            return Ok(());
        }
        let (response, limits) = match serde_json::from_str::<WorkerRequest>(&line) {
            Ok(WorkerRequest { id, request }) => {
                #[cfg(feature = "attack-hooks")]
                if let Some(attack) = attack::requested(&request.source) {
                    attack::perform(attack, id, &mut stdout, cap)?;
                    continue;
                }
                (execute(id, &request, &status, cap), request.limits)
            }
            Err(e) => (
                refusal(format!(
                    "the sandbox worker received a malformed request: {e}"
                )),
                Limits::default(),
            ),
        };
        let text = encode(&response, &limits)?;
        stdout.write_all(text.as_bytes())?;
        stdout.flush()?;
    }
}

/// The answer's line (newline included), never longer than [`answer_bound`] before the
/// newline: a longer one (a result within `maxOutputBytes` can grow when its numbers are
/// written out again) is replaced by the output limit's error, which the parent would
/// otherwise give after ending the worker.
fn encode(response: &WorkerResponse, limits: &Limits) -> std::io::Result<String> {
    // Encoding fails only for what JSON cannot hold; say so instead of going silent.
    let mut text = serde_json::to_string(response).or_else(|e| {
        serde_json::to_string(&WorkerResponse {
            id: response.id,
            ..refusal(format!(
                "the sandbox worker could not encode its answer: {e}"
            ))
        })
    })?;
    if text.len() > answer_bound(limits) {
        let failure = ScriptFailure::limit(limits.hit(jobgraph_core::LimitKind::OutputBytes));
        text = serde_json::to_string(&WorkerResponse {
            id: response.id,
            result: Err(ScriptError::Failed(failure)),
            peak_bytes: response.peak_bytes,
            micros: response.micros,
            room_bytes: response.room_bytes,
        })?;
    }
    text.push('\n');
    Ok(text)
}

/// An answer that is a failure of the worker itself, not of a script.
fn refusal(message: String) -> WorkerResponse {
    WorkerResponse {
        id: 0,
        result: Err(ScriptError::Failed(ScriptFailure::infrastructure(message))),
        peak_bytes: 0,
        micros: 0,
        room_bytes: None,
    }
}

fn execute(
    id: u64,
    request: &ScriptRequest,
    status: &ProcStatus,
    cap: Option<u64>,
) -> WorkerResponse {
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
    let room_bytes = cap
        .zip(status.mapped_bytes())
        .map(|(cap, mapped)| cap.saturating_sub(mapped));
    WorkerResponse {
        id,
        result,
        peak_bytes: u64::try_from(peak).unwrap_or(0),
        micros: u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX),
        room_bytes,
    }
}
