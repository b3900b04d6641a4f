//! `GET /v1/jobs/{id}/tap`: a bounded live sample of the events passing one vertex of a running
//! job, streamed as NDJSON as they pass (docs/api.md, "Running jobs", "Live tap"): what the
//! public service's live edit shows, and `jobgraph job:tap`.

use std::time::Duration;

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::Response;
use serde_json::Value;

use crate::auth::Caller;
use crate::body::QueryPairs;
use crate::error::{ApiError, ErrorBody};
use crate::state::AppState;
use crate::store::{GraphForm, StoreError};
use jobgraph_model::permissions::{Permission, Resource};

/// Events a tap sends by default, and at most.
const DEFAULT_LIMIT: u64 = 100;
const MAX_LIMIT: u64 = 10_000;
/// How long a tap listens by default, and at most (ms).
const DEFAULT_WAIT_MS: u64 = 30_000;
const MAX_WAIT_MS: u64 = 300_000;

/// Tap a running job: up to `limit` events passing `vertex` (default: its source), streamed as
/// NDJSON as they pass, for at most `waitMs`; the answer ends when the limit is reached, the
/// wait is over or the run ends. Only the replica that drives the job can tap it.
#[utoipa::path(
    get, path = "/v1/jobs/{id}/tap", operation_id = "tapJob", tag = "jobs",
    params(
        ("id" = String, Path, description = "Job id"),
        ("vertex" = Option<String>, Query, description = "The vertex whose output is sampled (default: the job's first source)"),
        ("limit" = Option<u64>, Query, minimum = 1, maximum = 10000, description = "Events at most (default 100)"),
        ("waitMs" = Option<u64>, Query, minimum = 1, maximum = 300000, description = "How long to listen at most, in ms (default 30000)"),
    ),
    responses(
        (status = 200, description = "`application/x-ndjson`: one event per line, as it passed the vertex", content_type = "application/x-ndjson", body = String),
        (status = 400, description = "A bad parameter, or a vertex the job does not have (its vertices listed)", body = ErrorBody),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
        (status = 404, description = "No such job in the caller's organization", body = ErrorBody),
        (status = 409, description = "The job is not running, or another replica drives it (named)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn tap(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    query: QueryPairs,
) -> Result<Response, ApiError> {
    caller.require(Permission::View, Resource::Jobs, &[])?;
    let bounded = |key: &str, default: u64, max: u64| -> Result<u64, ApiError> {
        let value = query.positive(key)?.unwrap_or(default);
        if value == 0 || value > max {
            return Err(ApiError::BadRequest(format!(
                "query parameter `{key}` must be between 1 and {max}, not {value}"
            )));
        }
        Ok(value)
    };
    let limit = bounded("limit", DEFAULT_LIMIT, MAX_LIMIT)?;
    let wait_ms = bounded("waitMs", DEFAULT_WAIT_MS, MAX_WAIT_MS)?;
    let record = state
        .store
        .job(
            caller.organization.clone(),
            id.clone(),
            None,
            GraphForm::Resolved,
        )
        .await
        .map_err(|e| match e {
            StoreError::NotFound => ApiError::job_not_found(&id),
            other => other.into(),
        })?;
    let graph: Value = serde_json::from_str(record.graph.get())
        .map_err(|e| ApiError::Internal(format!("job {id:?}: stored graph: {e}")))?;
    let names: Vec<(&str, &str)> = graph["vertices"]
        .as_array()
        .map(|vertices| {
            vertices
                .iter()
                .filter_map(|v| Some((v["name"].as_str()?, v["type"].as_str()?)))
                .collect()
        })
        .unwrap_or_default();
    let vertex = match query.single("vertex")? {
        Some(asked) => {
            if !names.iter().any(|(name, _)| *name == asked) {
                let known: Vec<&str> = names.iter().map(|(name, _)| *name).collect();
                return Err(ApiError::BadRequest(format!(
                    "job {id:?} has no vertex {asked:?}: its vertices are {}",
                    known.join(", ")
                )));
            }
            asked.to_owned()
        }
        None => names
            .iter()
            .find(|(_, kind)| kind.ends_with("-source"))
            .or(names.first())
            .map(|(name, _)| (*name).to_owned())
            .unwrap_or_default(),
    };
    let Some((_, rx)) = state.runs.tap(&id, &vertex, limit as usize) else {
        let replica = record
            .run
            .as_ref()
            .and_then(|run| serde_json::from_str::<Value>(run.status.get()).ok())
            .and_then(|status| status["replica"].as_str().map(str::to_owned))
            .filter(|r| !r.is_empty());
        let message = match (record.meta.state.as_str(), replica) {
            ("RUNNING", Some(replica)) => format!(
                "job {id:?} runs on replica {replica}, not this one: tap it there (each replica logs its id when it starts)"
            ),
            (state, _) => format!(
                "job {id:?} is not running here (state {state}): a tap samples a running job; start it with desiredState RUNNING"
            ),
        };
        return Err(ApiError::Conflict {
            message,
            current_version: None,
        });
    };
    let deadline = tokio::time::Instant::now() + Duration::from_millis(wait_ms);
    let body = futures_util::stream::unfold(rx, move |mut rx| async move {
        match tokio::time::timeout_at(deadline, rx.recv()).await {
            Ok(Some(item)) => Some((item, rx)),
            _ => None,
        }
    });
    Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, "application/x-ndjson")
        .header(header::CACHE_CONTROL, "no-store")
        .body(Body::from_stream(body))
        .map_err(|e| ApiError::Internal(e.to_string()))
}
