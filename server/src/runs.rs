//! `POST /v1/jobs/sync`: a SYNCHRONOUS + BATCH job run here, on the events inline in its
//! `logs-values-source` vertices (docs/pipeline.md), its sinks' events streamed as the public
//! client reads them: JSON records separated by `\r\n`, `RUNNING` (with `data`) … `FINISHED`,
//! or `FAILED` with a `message`. Jobs of other kinds are refused (400) and say why.

use axum::body::Body;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::Response;
use jobgraph_core::JobGraph;
use jobgraph_core::pipeline::{Pipeline, RunInput, RunOptions};
use serde_json::{Value, json};

use super::auth::Caller;
use super::body::JsonBody;
use super::error::{ApiError, ErrorBody};
use super::jobs;
use super::scripts;
use super::state::AppState;
use super::validate::{job_graph, object, required_string, string_map};
use jobgraph_sdk::api::request_docs::CreateJobDoc;

/// Events per `data` record.
const BATCH: usize = 500;
/// Wall-clock limit of one run (below the public client's ~20 s heartbeat window, so no
/// `HEARTBEAT` record is needed).
const RUN_TIMEOUT_MS: u64 = 10_000;

fn record(state: &str, data: Option<Value>, message: Option<&str>) -> Vec<u8> {
    let mut r = json!({"jobState": state});
    if let Some(data) = data {
        r["data"] = data;
    }
    if let Some(message) = message {
        r["message"] = Value::String(message.to_owned());
    }
    let mut bytes = serde_json::to_vec(&r).unwrap_or_default();
    bytes.extend_from_slice(b"\r\n");
    bytes
}

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
    let options = RunOptions {
        keep: 0,
        timeout_ms: RUN_TIMEOUT_MS,
        ..RunOptions::default()
    };
    let outcome = tokio::task::spawn_blocking(move || pipeline.run(RunInput::default(), &options))
        .await
        .map_err(|e| ApiError::Internal(format!("run task failed: {e}")))?;
    let mut body = record("RUNNING", None, None);
    match outcome {
        Ok(run) => {
            for events in run.sinks.values() {
                for batch in events.chunks(BATCH) {
                    let data = Value::Array(batch.iter().map(|e| e.to_value()).collect());
                    body.extend(record("RUNNING", Some(data), None));
                }
            }
            body.extend(record("FINISHED", None, None));
        }
        Err(error) => body.extend(record("FAILED", None, Some(&error.to_string()))),
    }
    Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, "application/x-ndjson")
        .body(Body::from(body))
        .map_err(|e| ApiError::Internal(e.to_string()))
}

/// Keep a synchronous job alive: this service never sends `HEARTBEAT` records (a run ends
/// within 10 s, inside the client's 20 s window), so any token is acknowledged (204).
#[utoipa::path(
    post, path = "/v1/jobs/sync/heartbeat", operation_id = "heartbeatJobSync", tag = "jobs",
    responses(
        (status = 204, description = "Acknowledged"),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn heartbeat(_caller: Caller) -> StatusCode {
    StatusCode::NO_CONTENT
}
