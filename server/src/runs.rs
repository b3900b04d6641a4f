//! `POST /v1/jobs/sync`: a SYNCHRONOUS + BATCH job run here, on the events inline in its
//! `logs-values-source` vertices (docs/pipeline.md), its sinks' events streamed as the public
//! client reads them: JSON records separated by `\r\n`, `RUNNING` (with `data`) … `FINISHED`,
//! or `FAILED` with a `message`. Jobs of other kinds are refused (400) and say why.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use jobgraph_core::JobGraph;
use jobgraph_core::pipeline::{LogEvent, Pipeline, RunInput, RunOptions};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::auth::Caller;
use super::body::JsonBody;
use super::error::{ApiError, ErrorBody};
use super::jobs;
use super::scripts;
use super::state::AppState;
use super::sync_stream::{Records, streamed};
use super::validate::{job_graph, object, required_string, string_map};
use jobgraph_sdk::api::request_docs::CreateJobDoc;

/// Events per `data` record.
const BATCH: usize = 500;
/// Wall-clock limit of one pipeline run on inline events.
const RUN_TIMEOUT_MS: u64 = 10_000;

/// Run a synchronous batch job: its template operations resolved (as the caller), then every
/// stage run on the events inline in its `logs-values-source` vertices; the events that reach
/// its sinks stream back as records `{jobState, data}` separated by `\r\n`, ending with
/// `FINISHED` (or `FAILED` with `message` when the run hits a limit). The job is not stored.
#[utoipa::path(
    post, path = "/v1/jobs/sync", operation_id = "createJobSync", tag = "jobs",
    request_body = CreateJobDoc,
    responses(
        (status = 200, description = "The run's records, `application/x-ndjson` with `\\r\\n` separators: `{\"jobState\": \"RUNNING\"}`, then `RUNNING` records whose `data` is an array of events that reached a sink, then `FINISHED`; or `FAILED` with `message`", content_type = "application/x-ndjson", body = String),
        (status = 400, description = "Not a SYNCHRONOUS BATCH job, a source other than `logs-values-source`, a field missing or invalid, a bad query, or resolution failed (contract message)", body = ErrorBody),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
        (status = 413, description = "The request body is over `maxBodyBytes` (10 MiB by default)", body = ErrorBody),
        (status = 415, description = "The body is not `application/json`", body = ErrorBody),
        (status = 429, description = "The organization already has `maxConcurrentScripts` requests running scripts (`Retry-After`)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn sync(
    State(state): State<AppState>,
    caller: Caller,
    JsonBody(body): JsonBody,
) -> Result<Response, ApiError> {
    let map = object(&body, "the body")?;
    // `execution` and `processing` are required on creation (the interface document), here too.
    let execution = required_string(map, "", "execution")?;
    let processing = required_string(map, "", "processing")?;
    if execution != "SYNCHRONOUS" || processing != "BATCH" {
        return Err(ApiError::BadRequest(format!(
            "POST /v1/jobs/sync runs SYNCHRONOUS BATCH jobs; this one is {execution} {processing}: streaming and asynchronous jobs are stored with POST /v1/jobs/async and not run"
        )));
    }
    let name = required_string(map, "", "name")?;
    // The fields a stored job would be refused for are refused here too, though a synchronous
    // run stores nothing (Schemathesis: `tags: [null]` was accepted).
    let tags = string_map(map, "tags")?.unwrap_or_default();
    jobs::desired_state(map, "RUNNING")?;
    state.config.field_limits.check_job(&name, &tags)?;
    let definition = job_graph(
        map.get("jobGraph")
            .ok_or_else(|| ApiError::BadRequest("`jobGraph` is required".into()))?,
        "jobGraph",
    )?;
    let (resolved, _) = scripts::resolve(&state, &caller, definition).await?;
    let graph = JobGraph::from_value(resolved)
        .map_err(|e| ApiError::BadRequest(format!("Invalid job graph: {e}")))?;
    if let Some(source) = graph
        .vertices
        .iter()
        .find(|v| v.vertex_type() == "logs-iceberg-table-source")
    {
        return Err(ApiError::BadRequest(format!(
            "vertex {} is a logs-iceberg-table-source: this service has no data lake yet, so a synchronous job reads its events from logs-values-source vertices (`values`)",
            source.name()
        )));
    }
    let pipeline = Pipeline::compile(&graph).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let (records, response) = streamed()?;
    let (inputs, source) = mpsc::channel(2);
    // Inline events: one run on the graph's own `logs-values-source` vertices.
    let _ = inputs.try_send(Input::Run(RunInput::default()));
    drop(inputs);
    tokio::spawn(drive(state, Arc::new(pipeline), source, records));
    Ok(response)
}

/// What the source side of a run hands the driver.
pub(crate) enum Input {
    /// Run the pipeline on this.
    Run(RunInput),
    /// The source stopped the run: its final state and why.
    End(&'static str, String),
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

/// Runs the pipeline on each input as it arrives and streams what reaches its sinks, with a
/// `HEARTBEAT` record every `heartbeatIntervalMs`; ends `FINISHED` when the inputs end,
/// `CANCELLED` when the client posted no heartbeat for `heartbeatTimeoutMs`, or with the
/// source's own final state.
async fn drive(
    state: AppState,
    pipeline: Arc<Pipeline>,
    mut inputs: mpsc::Receiver<Input>,
    records: Records,
) {
    let config = &state.config.sync_runs;
    let Ok(token) = state.heartbeats.register() else {
        let _ = records
            .send("FAILED", json!({"message": "cannot make a heartbeat token"}))
            .await;
        return;
    };
    let beat = Duration::from_millis(config.heartbeat_interval_ms.max(1));
    let timeout = Duration::from_millis(config.heartbeat_timeout_ms.max(1));
    let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + beat, beat);
    let ending = 'run: {
        if records.send("RUNNING", Value::Null).await.is_err() {
            break 'run None;
        }
        loop {
            tokio::select! {
                input = inputs.recv() => match input {
                    None => break 'run Some(Ending::new("FINISHED", None)),
                    Some(Input::End(state, message)) => break 'run Some(Ending::new(state, message)),
                    Some(Input::Run(input)) => match run_once(&pipeline, input).await {
                        Err(message) => break 'run Some(Ending::new("FAILED", message)),
                        Ok(events) => {
                            for batch in events.chunks(BATCH) {
                                let data = Value::Array(batch.iter().map(LogEvent::to_value).collect());
                                if records.send("RUNNING", json!({"data": data})).await.is_err() {
                                    break 'run None;
                                }
                            }
                        }
                    },
                },
                _ = ticks.tick() => {
                    if state.heartbeats.silence(&token) > timeout {
                        break 'run Some(Ending::new(
                            "CANCELLED",
                            format!("no heartbeat posted for {} ms", timeout.as_millis()),
                        ));
                    }
                    if records.send("HEARTBEAT", json!({"heartbeatToken": token})).await.is_err() {
                        break 'run None;
                    }
                }
            }
        }
    };
    state.heartbeats.forget(&token);
    if let Some(ending) = ending {
        let fields = match ending.message {
            Some(message) => json!({"message": message}),
            None => Value::Null,
        };
        let _ = records.send(ending.state, fields).await;
    }
}

/// One pipeline run on the blocking pool: the events of every sink, in graph order.
async fn run_once(pipeline: &Arc<Pipeline>, input: RunInput) -> Result<Vec<LogEvent>, String> {
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
    Ok(run.sinks.into_values().flatten().collect())
}

/// Keep a synchronous job alive: the body is the token of a `HEARTBEAT` record, as text (a JSON
/// string or `{"heartbeatToken": …}` is read too). Always 204: a token whose run already ended
/// (or that this replica never issued) is acknowledged and ignored, so a client that posts
/// one just as its run finishes does not fail.
#[utoipa::path(
    post, path = "/v1/jobs/sync/heartbeat", operation_id = "heartbeatJobSync", tag = "jobs",
    responses(
        (status = 204, description = "Acknowledged (the run of a known token lives on)"),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn heartbeat(State(state): State<AppState>, _caller: Caller, body: Bytes) -> StatusCode {
    let text = String::from_utf8_lossy(&body);
    let token = match serde_json::from_str::<Value>(&text) {
        Ok(Value::String(token)) => token,
        Ok(Value::Object(map)) => map
            .get("heartbeatToken")
            .or_else(|| map.get("token"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
        _ => text.into_owned(),
    };
    state.heartbeats.renew(&token);
    StatusCode::NO_CONTENT
}
