//! What runs a synchronous job once its answer has started: the pipeline on each input as it
//! arrives, the sinks' events streamed (or written to the lake), `HEARTBEAT` records, and the
//! run's ends — `FINISHED`, `FAILED`, `CANCELLED` (no heartbeat posted), `TIMED_OUT` (the
//! lake's time limit), or the source's own (`SCANNED_MAX`). A record waiting for a slow reader
//! still notices the deadline and the client's silence.
//!
//! Events leave as one `RUNNING` record each (`{"jobState":"RUNNING","data":EVENT}`, what the
//! public client reads), serialized [`BATCH`] at a time into one buffer that is sent as one
//! piece: the driver is the stream's only writer, and nothing is flushed or sent per event.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use indexmap::IndexMap;
use jobgraph_core::pipeline::{LogEvent, Pipeline, RunInput, RunOptions};
use jobgraph_lake::ScanStats;
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::ids::now_ms;
use crate::lake::sink::LakeSinks;
use crate::state::AppState;
use crate::sync_stream::{Input, Records, final_fields, record, running_records};

/// Events serialized into one buffer (one channel send, one body chunk), one record each.
const BATCH: usize = 500;
/// Wall-clock limit of one pipeline run on a batch of events.
const RUN_TIMEOUT_MS: u64 = 10_000;

/// What a run does besides streaming its sinks' events.
pub(crate) struct Plan {
    /// Events its sinks receive at most, all together.
    pub limit: Option<u64>,
    /// The scan's figures, for the final record.
    pub stats: Option<Arc<Mutex<ScanStats>>>,
    /// When it ends `TIMED_OUT`.
    pub deadline: Option<Instant>,
    /// Its `logs-iceberg-table-sink` writers.
    pub sinks: LakeSinks,
    /// Its organization's place for lake runs, given back when the run ends.
    pub lake_place: Option<tokio::sync::OwnedSemaphorePermit>,
    /// Its organization (heartbeats posted through other replicas are looked up under it).
    pub organization: String,
}

/// How a run ended, and the fields of its final record.
struct Ending {
    state: &'static str,
    message: Option<String>,
}

impl Ending {
    fn new(state: &'static str, message: impl Into<Option<String>>) -> Self {
        Ending {
            state,
            message: message.into(),
        }
    }
}

/// Why a run stops before its inputs end: the client is gone, or an ending.
enum Halt {
    Gone,
    End(Ending),
}

/// The run's clocks: its deadline and its client's heartbeats.
struct Watch<'a> {
    state: &'a AppState,
    organization: String,
    token: String,
    silence: Duration,
    deadline: Instant,
}

impl Watch<'_> {
    /// The ending due now, if any: the deadline first, then the client's silence (heartbeats
    /// posted to another replica count: they are looked up in the database before the run is
    /// cancelled, so only a run whose client seems silent costs a read).
    async fn due(&self) -> Option<Ending> {
        if Instant::now() >= self.deadline {
            return Some(Ending::new(
                "TIMED_OUT",
                format!(
                    "the run took longer than {} ms (lake.queryTimeoutMs)",
                    self.state.config.lake.query_timeout_ms
                ),
            ));
        }
        if self.state.heartbeats.silence(&self.token) > self.silence
            && !self.heard_elsewhere().await
        {
            return Some(Ending::new(
                "CANCELLED",
                format!("no heartbeat posted for {} ms", self.silence.as_millis()),
            ));
        }
        None
    }

    /// Whether the client posted the token to another replica within the allowed silence
    /// (then this replica's clock of the token is set to that time).
    async fn heard_elsewhere(&self) -> bool {
        let renewed = self
            .state
            .store
            .sync_heartbeat(self.organization.clone(), self.token.clone())
            .await;
        let Ok(Some(at_ms)) = renewed else {
            return false;
        };
        let age = Duration::from_millis(u64::try_from(now_ms().saturating_sub(at_ms)).unwrap_or(0));
        age <= self.silence && self.state.heartbeats.renew_aged(&self.token, age)
    }

    /// Sends a record, waiting for a slow reader, but never past the deadline or the client's
    /// silence.
    async fn send(&self, records: &Records, state: &str, fields: Value) -> Result<(), Halt> {
        self.send_bytes(records, record(state, fields)).await
    }

    /// Sends records already serialized, as [`Watch::send`] does.
    async fn send_bytes(&self, records: &Records, bytes: Bytes) -> Result<(), Halt> {
        let step = (self.silence / 4).max(Duration::from_millis(10));
        loop {
            if let Some(ending) = self.due().await {
                return Err(Halt::End(ending));
            }
            tokio::select! {
                biased;
                // A clone of `Bytes` is a reference count, not a copy.
                sent = records.send_bytes(bytes.clone()) => return sent.map_err(|_| Halt::Gone),
                _ = tokio::time::sleep(step) => {}
            }
        }
    }
}

/// Runs the pipeline on each input as it arrives and streams what reaches its sinks (those
/// writing the lake write instead), with a `HEARTBEAT` record every `heartbeatIntervalMs`.
/// Ends `FINISHED` when the inputs end or the limit is reached (the lake sinks then commit),
/// `CANCELLED` when the client posted no heartbeat for `heartbeatTimeoutMs`, `TIMED_OUT` at
/// the deadline, or with the source's own final state; the final record carries the scan's
/// figures (`scan`) and what was written (`written`).
pub(crate) async fn drive(
    state: AppState,
    pipeline: Arc<Pipeline>,
    mut inputs: mpsc::Receiver<Input>,
    records: Records,
    plan: Plan,
) {
    let Plan {
        limit,
        stats,
        deadline,
        mut sinks,
        // Held (not dropped) until the run has ended and its sinks are committed or aborted.
        lake_place: _lake_place,
        organization,
    } = plan;
    let config = &state.config.sync_runs;
    let Ok(token) = state.heartbeats.register() else {
        let fields = final_fields(
            "FAILED",
            Some("cannot make a heartbeat token".into()),
            Default::default(),
        );
        let _ = records.send("FAILED", fields).await;
        sinks.abort().await;
        return;
    };
    let beat = Duration::from_millis(config.heartbeat_interval_ms.max(1));
    let watch = Watch {
        state: &state,
        organization,
        token: token.clone(),
        silence: Duration::from_millis(config.heartbeat_timeout_ms.max(1)),
        deadline: deadline.unwrap_or_else(|| Instant::now() + Duration::from_secs(86_400 * 365)),
    };
    let mut ticks = tokio::time::interval_at(Instant::now() + beat, beat);
    let mut remaining = limit.unwrap_or(u64::MAX);
    let halt = 'run: {
        if let Err(halt) = watch.send(&records, "RUNNING", Value::Null).await {
            break 'run halt;
        }
        loop {
            tokio::select! {
                biased;
                _ = tokio::time::sleep_until(watch.deadline) => {
                    let limit = state.config.lake.query_timeout_ms;
                    let fallback = || Ending::new("TIMED_OUT", format!("the run took longer than {limit} ms (lake.queryTimeoutMs)"));
                    break 'run Halt::End(watch.due().await.unwrap_or_else(fallback));
                }
                _ = ticks.tick() => {
                    if let Some(ending) = watch.due().await {
                        break 'run Halt::End(ending);
                    }
                    let beat = json!({"heartbeatToken": token});
                    if let Err(halt) = watch.send(&records, "HEARTBEAT", beat).await {
                        break 'run halt;
                    }
                }
                input = inputs.recv() => match input {
                    None => break 'run Halt::End(Ending::new("FINISHED", None)),
                    Some(Input::End(state, message)) => break 'run Halt::End(Ending::new(state, message)),
                    Some(Input::Run(input)) => {
                        let outputs = match run_once(&pipeline, input).await {
                            Ok(outputs) => outputs,
                            Err(message) => break 'run Halt::End(Ending::new("FAILED", message)),
                        };
                        for (sink, mut events) in outputs {
                            events.truncate(usize::try_from(remaining).unwrap_or(usize::MAX));
                            remaining -= events.len() as u64;
                            if sinks.has(&sink) {
                                if let Err(message) = sinks.write(&sink, &events).await {
                                    break 'run Halt::End(Ending::new("FAILED", message));
                                }
                                continue;
                            }
                            for batch in events.chunks(BATCH) {
                                let bytes = match running_records(batch) {
                                    Ok(bytes) => bytes,
                                    Err(e) => break 'run Halt::End(Ending::new("FAILED", format!("an event of sink {sink} could not be written as JSON: {e}"))),
                                };
                                if let Err(halt) = watch.send_bytes(&records, bytes).await {
                                    break 'run halt;
                                }
                            }
                        }
                        if remaining == 0 {
                            break 'run Halt::End(Ending::new("FINISHED", None));
                        }
                    }
                },
            }
        }
    };
    drop(inputs);
    state.heartbeats.forget(&token);
    let Halt::End(mut ending) = halt else {
        sinks.abort().await;
        return;
    };
    let mut fields = serde_json::Map::new();
    if ending.state == "FINISHED" && !sinks.is_empty() {
        match sinks.commit(&state).await {
            Ok(written) => {
                fields.insert("written".into(), written);
            }
            Err(message) => ending = Ending::new("FAILED", message),
        }
    } else {
        sinks.abort().await;
    }
    if let Some(stats) = stats.and_then(|s| s.lock().ok().map(|s| *s)) {
        fields.insert("scan".into(), json!(stats));
    }
    let fields = final_fields(ending.state, ending.message, fields);
    let _ = records.send(ending.state, fields).await;
}

/// One pipeline run on the blocking pool: the events of every sink, by sink, in graph order.
async fn run_once(
    pipeline: &Arc<Pipeline>,
    input: RunInput,
) -> Result<IndexMap<String, Vec<LogEvent>>, String> {
    let pipeline = Arc::clone(pipeline);
    let options = RunOptions {
        keep: 0,
        timeout_ms: RUN_TIMEOUT_MS,
        ..RunOptions::default()
    };
    let run = tokio::task::spawn_blocking(move || pipeline.run(input, &options))
        .await
        .map_err(|e| format!("run task failed: {e}"))?
        .map_err(|e| e.to_string())?;
    Ok(run.sinks)
}
