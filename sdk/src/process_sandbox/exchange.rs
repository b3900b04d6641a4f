//! One request to one worker: a fresh random id, the answer read within the deadline and the
//! output bound, and checked (the id echoed, nothing else written). A worker that breaks the
//! protocol is ended and only that request fails.

use std::io::Write;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{RecvTimeoutError, TryRecvError};
use std::time::Instant;

use jobgraph_core::{LimitKind, ScriptError, ScriptFailure, ScriptRequest, ScriptResult};

use super::worker::{Frame, Worker, death, infrastructure, limit};
use super::{ExecutionStats, ProcessSandbox};
use crate::sandbox_worker::{WorkerRequest, WorkerResponse, answer_bound};

/// A request that ran (or whose worker was ended trying): the result, and the worker when it
/// may serve again.
pub(super) struct Done {
    pub result: ScriptResult,
    pub stats: ExecutionStats,
    pub worker: Option<Worker>,
}

/// What became of a request given to a worker: `NotSent` when the worker had spoken out of
/// turn or died while idle (it was ended; the request can go to another worker).
pub(super) type Exchange = Result<Done, NotSent>;

/// See [`Exchange`].
pub(super) struct NotSent;

/// A fresh, unpredictable request id.
fn fresh_id() -> Result<u64, ScriptError> {
    getrandom::u64().map_err(|e| infrastructure(&format!("no random request id ({e})")))
}

/// The error of a request whose worker broke the protocol.
fn broken(what: &str) -> ScriptError {
    ScriptError::Failed(ScriptFailure::infrastructure(format!(
        "the sandbox worker {what}, so it was ended as one a script may have taken over; \
         run the request again (it gets a new worker)"
    )))
}

/// Sends `request` to `worker` and waits for its answer until the deadline.
pub(super) fn exchange(mut worker: Worker, request: &ScriptRequest) -> Exchange {
    let started = Instant::now();
    let mut stats = ExecutionStats {
        worker_pid: worker.pid(),
        ..ExecutionStats::default()
    };
    // Anything on its stdout now was written before it got a request: an answer prepared for
    // a request it has not seen.
    match worker.frames.try_recv() {
        Err(TryRecvError::Empty) => {}
        _ => {
            drop(worker.end());
            return Err(NotSent);
        }
    }
    let limits = &request.limits;
    let id = match fresh_id() {
        Ok(id) => id,
        Err(e) => return done(Err(e), stats, Some(worker), started),
    };
    let mut line = match serde_json::to_string(&WorkerRequest {
        id,
        request: request.clone(),
    }) {
        Ok(line) => line,
        Err(e) => return done(Err(infrastructure(&e)), stats, Some(worker), started),
    };
    line.push('\n');
    worker.bound.store(answer_bound(limits), Ordering::Release);
    let written = worker
        .stdin
        .write_all(line.as_bytes())
        .and_then(|()| worker.stdin.flush());
    if written.is_err() {
        // It died while idle.
        drop(worker.end());
        return Err(NotSent);
    }
    let deadline = started + ProcessSandbox::kill_after(limits.timeout_ms);
    let frame = worker
        .frames
        .recv_timeout(deadline.saturating_duration_since(Instant::now()));
    stats.worker_replaced = true;
    let result = match frame {
        Ok(Frame::Line { text, more }) => {
            match serde_json::from_str::<WorkerResponse>(&text) {
                Ok(response) if response.id != id => {
                    Err(broken("answered with another request's id"))
                }
                Ok(_) if more => Err(broken("answered twice")),
                Ok(response) => {
                    stats.peak_bytes = response.peak_bytes;
                    worker.room = response.room_bytes;
                    // After a limit, the worker is not trusted with another script.
                    let hit_limit = matches!(&response.result, Err(ScriptError::Failed(f)) if f.limit.is_some());
                    if !hit_limit {
                        stats.worker_replaced = false;
                        return done(response.result, stats, Some(worker), started);
                    }
                    response.result
                }
                Err(e) => Err(broken(&format!("wrote an unreadable answer ({e})"))),
            }
        }
        Ok(Frame::TooLong) => Err(limit(limits, LimitKind::OutputBytes)),
        Err(RecvTimeoutError::Timeout) => {
            // Still alive: its peak resident set is readable until the kill.
            stats.peak_bytes = worker.peak_rss();
            Err(limit(limits, LimitKind::Time))
        }
        Ok(Frame::Closed) | Err(RecvTimeoutError::Disconnected) => {
            let (stderr, status) = worker.end();
            return done(Err(death(&stderr, status, limits)), stats, None, started);
        }
    };
    drop(worker.end());
    done(result, stats, None, started)
}

fn done(
    result: ScriptResult,
    mut stats: ExecutionStats,
    worker: Option<Worker>,
    started: Instant,
) -> Exchange {
    stats.elapsed = started.elapsed();
    Ok(Done {
        result,
        stats,
        worker,
    })
}
