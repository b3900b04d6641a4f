//! `POST /v1/triggers`: the one endpoint that needs no token, so the one an anonymous client can
//! lean on (issue 27). A trigger names a job (`?job=JOB_ID`), which gives it an organization;
//! its payload is small (`triggers.maxPayloadBytes`, 413 past it, before any of it is read);
//! each source address and each organization has a budget of triggers (429 with
//! `Retry-After`); an organization keeps its newest `triggers.keptPerOrganization` triggers,
//! older ones are pruned as new ones arrive, so the disk a job's triggers take is bounded.

use std::time::Duration;

use axum::Json;
use axum::extract::{Request, State};
use axum::http::StatusCode;

use crate::body::{QueryPairs, is_json, media_type, parse_body, read_limited};
use crate::error::{ApiError, ErrorBody};
use crate::guards::throttle::{address_key, client_key};
use crate::ids::new_id;
use crate::model::TriggerAccepted;
use crate::state::AppState;
use crate::store::TriggerRecord;

/// Seconds to announce in `Retry-After` for a wait (at least 1).
fn seconds(wait: Duration) -> u64 {
    wait.as_secs() + u64::from(wait.subsec_nanos() > 0)
}

/// Create an external trigger for a job: no token needed; the payload (any JSON) is stored.
#[utoipa::path(
    post, path = "/v1/triggers", operation_id = "createTrigger", tag = "triggers",
    params(("job" = String, Query, description = "The id of the job the trigger is for: it gives the trigger its organization")),
    request_body(content = serde_json::Value, description = "Any JSON value, at most `triggers.maxPayloadBytes` (64 KiB by default)"),
    responses(
        (status = 202, description = "Stored", body = TriggerAccepted),
        (status = 400, description = "No `job` parameter, or the body is not valid JSON (the message gives line and column)", body = ErrorBody),
        (status = 404, description = "No job with that id", body = ErrorBody),
        (status = 408, description = "The body did not arrive within `connections.bodyReadTimeoutMs`", body = ErrorBody),
        (status = 413, description = "The payload is over `triggers.maxPayloadBytes` (answered before the body is read when `Content-Length` says so)", body = ErrorBody),
        (status = 415, description = "The body is not `application/json`", body = ErrorBody),
        (status = 429, description = "The source address or the job's organization sent too many triggers; `Retry-After` says when to retry", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
pub async fn create_trigger(
    State(state): State<AppState>,
    query: QueryPairs,
    request: Request,
) -> Result<(StatusCode, Json<TriggerAccepted>), ApiError> {
    let job_id = query.single("job")?.map(str::to_owned).ok_or_else(|| {
        ApiError::BadRequest("name the job the trigger is for: POST /v1/triggers?job=JOB_ID".into())
    })?;
    let address = state.throttle.request_address(&request);
    let config = &state.config.triggers;
    state
        .triggers
        .addresses
        .take(address_key(address))
        .map_err(|wait| ApiError::TooManyRequests {
            message: format!(
                "this address sent more than {} triggers in a burst (one more every {} ms); retry later",
                config.address_burst, config.address_period_ms
            ),
            retry_after: seconds(wait),
        })?;
    if !is_json(request.headers()) {
        return Err(ApiError::UnsupportedMediaType(format!(
            "the trigger's payload must be JSON (Content-Type: application/json), not {}",
            media_type(request.headers()).unwrap_or_else(|| "unspecified".into())
        )));
    }
    let organization = state
        .store
        .trigger_organization(job_id.clone())
        .await?
        .ok_or_else(|| ApiError::job_not_found(&job_id))?;
    state
        .triggers
        .organizations
        .take(client_key(&organization))
        .map_err(|wait| ApiError::TooManyRequests {
            message: format!(
                "this job's organization received more than {} triggers in a burst (one more every {} ms); retry later",
                config.organization_burst, config.organization_period_ms
            ),
            retry_after: seconds(wait),
        })?;
    // The body limit caps every body, triggers' included.
    let limit = config.max_payload_bytes.min(state.config.max_body_bytes);
    let bytes = read_limited(request, &state, limit).await?;
    let payload = parse_body(&bytes).map_err(|e| {
        ApiError::BadRequest(format!("the trigger's payload is not valid JSON: {e}"))
    })?;
    drop(bytes);
    let id = new_id().map_err(|e| ApiError::Internal(e.to_string()))?;
    state
        .store
        .put_trigger(
            TriggerRecord {
                id: id.clone(),
                organization,
                job_id,
                payload,
            },
            config.kept_per_organization,
        )
        .await?;
    Ok((StatusCode::ACCEPTED, Json(TriggerAccepted { id })))
}
