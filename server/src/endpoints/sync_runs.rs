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
use jobgraph_core::pipeline::{Pipeline, RunInput};
use serde_json::Value;
use tokio::sync::mpsc;

use crate::auth::Caller;
use crate::body::JsonBody;
use crate::endpoints::jobs;
use crate::endpoints::scripts;
use crate::endpoints::sync_driver;
use crate::error::{ApiError, ErrorBody};
use crate::lake::query::LakeSource;
use crate::lake::sink::LakeSinks;
use crate::state::AppState;
use crate::sync_stream::{Input, streamed};
use crate::validate::{job_graph, object, required_string, string_map};
use jobgraph_model::permissions::{Permission, Resource};
use jobgraph_sdk::api::request_docs::CreateJobDoc;

/// Run a synchronous batch job: its template operations resolved (as the caller), then every
/// stage run on the events inline in its `logs-values-source` vertices; the events that reach
/// its sinks stream back as records `{jobState, data}` separated by `\r\n`, ending with
/// `FINISHED` (or `FAILED` with `message` when the run hits a limit). The job is not stored.
#[utoipa::path(
    post, path = "/v1/jobs/sync", operation_id = "createJobSync", tag = "jobs",
    request_body = CreateJobDoc,
    responses(
        (status = 200, description = "The run's records, `application/x-ndjson` with `\\r\\n` separators: `{\"jobState\": \"RUNNING\"}`, then one `RUNNING` record per event that reached a sink, the event as its `data`, then `FINISHED`; or a final `FAILED` (`CANCELLED`, `TIMED_OUT`, `SCANNED_MAX`) with its reason as `message` and as `data: {message}`", content_type = "application/x-ndjson", body = String),
        (status = 400, description = "Not a SYNCHRONOUS BATCH job, a source other than `logs-values-source`, a field missing or invalid, a bad query, or resolution failed (contract message)", body = ErrorBody),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
        (status = 413, description = "The request body is over `maxBodyBytes` (10 MiB by default)", body = ErrorBody),
        (status = 415, description = "The body is not `application/json`", body = ErrorBody),
        (status = 429, description = "The organization already has `maxConcurrentScripts` requests running scripts, or `fairness.lakeRunsPerOrganization` runs reading or writing the lake (`Retry-After`)", body = ErrorBody),
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
    caller.require(Permission::View, Resource::Jobs, &[])?;
    let (resolved, _) = scripts::resolve(&state, &caller, definition).await?;
    crate::access::require_graph(&state, &caller, &resolved).await?;
    let graph = JobGraph::from_value(resolved)
        .map_err(|e| ApiError::BadRequest(format!("Invalid job graph: {e}")))?;
    let pipeline = Pipeline::compile(&graph).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    refuse_unrun_sources(&pipeline)?;
    let organization = &caller.organization;
    let source = LakeSource::plan(&state, organization, &graph).await?;
    let sinks = LakeSinks::plan(&state, organization, &graph).await?;
    let uses_lake = source.is_some() || !sinks.is_empty();
    let lake_place = match uses_lake {
        true => Some(state.lake_runs.enter(organization).await?),
        false => None,
    };
    let (records, response) = streamed()?;
    let (inputs, receiver) = mpsc::channel(2);
    let plan = sync_driver::Plan {
        limit: source.as_ref().and_then(|s| s.limit),
        stats: source.as_ref().map(|s| Arc::clone(&s.stats)),
        deadline: uses_lake.then(|| {
            tokio::time::Instant::now()
                + Duration::from_millis(state.config.lake.query_timeout_ms.max(1))
        }),
        sinks,
        lake_place,
        organization: organization.clone(),
    };
    match source {
        Some(source) => source.start(inputs),
        // Inline events: one run on the graph's own `logs-values-source` vertices.
        None => {
            let _ = inputs.try_send(Input::Run(RunInput::default()));
        }
    }
    tokio::spawn(sync_driver::drive(
        state,
        Arc::new(pipeline),
        receiver,
        records,
        plan,
    ));
    Ok(response)
}

/// A source this service cannot read would yield nothing, silently: a 400 naming it instead
/// (`job:run` and the draft preview name it as not simulated and go on).
fn refuse_unrun_sources(pipeline: &Pipeline) -> Result<(), ApiError> {
    let unrun = pipeline.unrun_sources();
    let Some((name, vertex_type)) = unrun.first() else {
        return Ok(());
    };
    Err(ApiError::BadRequest(format!(
        "POST /v1/jobs/sync: vertex {name:?} of type {vertex_type:?} has no incoming edge, so it is a source, and this service cannot run that type: a synchronous run reads logs-values-source (events inline in `values`), logs-iceberg-table-source or grepr-raw-log-source (a dataset); replace it with one of those{}",
        match unrun.len() {
            1 => String::new(),
            n => format!(" ({} more such vertices)", n - 1),
        }
    )))
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
pub async fn heartbeat(State(state): State<AppState>, caller: Caller, body: Bytes) -> StatusCode {
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
    let token = token.trim();
    // A run of another replica (a balancer spread the client's requests): the token goes
    // through the database, where that replica looks before it cancels its run.
    if !state.heartbeats.renew(token) && looks_like_token(token) {
        let keep = i64::try_from(state.config.sync_runs.heartbeat_timeout_ms)
            .unwrap_or(i64::MAX / 4)
            .saturating_mul(3)
            .max(60_000);
        if let Err(e) = state
            .store
            .renew_sync_heartbeat(caller.organization.clone(), token.to_owned(), keep)
            .await
        {
            tracing::warn!(
                "POST /v1/jobs/sync/heartbeat: the renewal could not be stored for other replicas: {e}"
            );
        }
    }
    StatusCode::NO_CONTENT
}

/// Whether `text` has the shape of a heartbeat token this service issues (base64url, 24
/// characters), so that nothing else is written to the database.
fn looks_like_token(text: &str) -> bool {
    text.len() == 24
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}
