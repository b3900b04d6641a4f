//! `GET /metrics`: the caller's organization's running jobs on this replica, in the
//! Prometheus text format (docs/api.md, "Metrics").

use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;

use crate::auth::Caller;
use crate::error::{ApiError, ErrorBody};
use crate::state::AppState;
use jobgraph_model::permissions::{Permission, Resource};

/// The text format's media type, as Prometheus asks for it.
const TEXT_FORMAT: &str = "text/plain; version=0.0.4; charset=utf-8";

/// Metrics of the caller's organization's running jobs on this replica: per job and per
/// vertex, events and bytes in and out, errors, checkpoints, lag and state; per vendor sink,
/// deliveries, retries and dead letters; per integration, what this replica's intake took and
/// refused and what the intake log holds (Prometheus text format; scrape every replica with a
/// bearer token of the organization).
#[utoipa::path(
    get, path = "/metrics", operation_id = "getMetrics", tag = "service",
    responses(
        (status = 200, description = "Prometheus text format (version 0.0.4): `jobgraph_runs`, `jobgraph_job_state`, `jobgraph_job_source_events_total`, `jobgraph_job_source_bytes_total`, `jobgraph_job_sink_events_total`, `jobgraph_job_sink_bytes_total`, `jobgraph_job_errors_total`, `jobgraph_job_checkpoints_total`, `jobgraph_job_event_time_lag_seconds`, `jobgraph_job_processing_lag_seconds`, `jobgraph_vertex_events_in_total`, `jobgraph_vertex_events_out_total`, `jobgraph_vertex_bytes_in_total`, `jobgraph_delivery_events_total`, `jobgraph_delivery_retries_total`, `jobgraph_delivery_dead_letters_total`, `jobgraph_delivery_failing`, labelled by `job_id`, `job_name`, `version` (and `vertex`, `vertex_type`, `state`); `jobgraph_intake_events_total`, `jobgraph_intake_requests_refused_total`, `jobgraph_intake_buffered_events`, `jobgraph_intake_buffered_bytes`, labelled by `integration`", content_type = "text/plain", body = String),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn metrics(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<impl IntoResponse, ApiError> {
    caller.require(Permission::View, Resource::Jobs, &[])?;
    let text = crate::runner::metrics::render(&state, &caller.organization);
    Ok(([(header::CONTENT_TYPE, TEXT_FORMAT)], text))
}
