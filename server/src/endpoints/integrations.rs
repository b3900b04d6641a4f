//! `/v1/integrations`: the integrations of the `--config` file (`integrations`), each with the
//! caller organization's jobs that use it — derived from the jobs' stored (resolved) graphs:
//! a vertex whose `integration` field is the integration's id (`logs-sync-sink` has it).
//!
//! Two shapes: ours (`GET /v1/integrations`, `GET /v1/integrations/{id}`: [`IntegrationOut`])
//! and the public service's, type by type as its client reads them
//! (`GET /v1/integrations/{type}`, `GET /v1/integrations/{type}/{id}`: [`IntegrationRead`]).
//! `/v1/integrations/{x}` is the list of type `x` when `x` is one of the seven type names
//! ([`PUBLIC_TYPES`]), else the integration of id `x`: the configuration refuses an id equal to
//! a type name, so neither hides the other.

use std::sync::LazyLock;

use axum::Json;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use crate::auth::Caller;
use crate::error::{ApiError, ErrorBody};
use crate::ids::{iso8601, now_ms};
use crate::integration_spec::{IntegrationSpec, PUBLIC_TYPES};
use crate::state::AppState;
use crate::store::{GraphForm, JobFilter, PageKey, PageRequest};
use jobgraph_model::permissions::{Permission, Resource};
use jobgraph_sdk::api::{IntegrationJob, IntegrationOut, IntegrationRead, Items};

/// When this process read its configuration: the `createdAt` and `updatedAt` of every
/// integration in the public shape (set by [`configuration_read`] when the router is built).
static CONFIGURATION_READ_AT: LazyLock<String> = LazyLock::new(|| iso8601(now_ms()));

/// Notes the time the configuration was read (called once when the router is built).
pub(crate) fn configuration_read() {
    LazyLock::force(&CONFIGURATION_READ_AT);
}

/// What `GET /v1/integrations/{id}` answers, as the OpenAPI document states it: an integration
/// of ours, or, when the path names one of the seven types, the list of that type.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[allow(dead_code)] // Only its schema is used.
#[serde(untagged)]
enum IntegrationOrTyped {
    /// `GET /v1/integrations/{id}`: the integration of that id.
    Integration(IntegrationOut),
    /// `GET /v1/integrations/{type}`: the integrations of that type.
    Typed(Items<IntegrationRead>),
}

/// The integration ids a job graph uses: every vertex's string `integrationId` field (the
/// public operations' sinks and sources), or `integration`.
fn used_by(graph: &Value) -> Vec<&str> {
    graph
        .get("vertices")
        .and_then(Value::as_array)
        .map(|vertices| {
            vertices
                .iter()
                .filter_map(|v| {
                    v.get("integrationId")
                        .or_else(|| v.get("integration"))
                        .and_then(Value::as_str)
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The organization's live jobs (latest versions, resolved graphs), as (id, name, integration
/// ids used), oldest first: every page of the job listing.
async fn jobs_using(
    state: &AppState,
    organization: &str,
) -> Result<Vec<(String, String, Vec<String>)>, ApiError> {
    let mut found = Vec::new();
    let mut after: Option<PageKey> = None;
    loop {
        let page = PageRequest {
            after: after.clone(),
            limit: state.config.field_limits.max_page_size.max(1),
            max_bytes: state.config.field_limits.max_page_bytes,
        };
        let records = state
            .store
            .list_jobs(
                organization.to_owned(),
                JobFilter::default(),
                GraphForm::Resolved,
                page,
            )
            .await?;
        after = records.items.last().map(|r| r.page_key());
        for record in records.items {
            let graph: Value = serde_json::from_str(record.graph.get())
                .map_err(|e| ApiError::Internal(format!("stored job graph: {e}")))?;
            let used = used_by(&graph).into_iter().map(str::to_owned).collect();
            found.push((record.id, record.meta.name, used));
        }
        if !records.more || after.is_none() {
            return Ok(found);
        }
    }
}

fn view(
    state: &AppState,
    spec: &IntegrationSpec,
    jobs: &[(String, String, Vec<String>)],
) -> IntegrationOut {
    let ingest = spec
        .ingest_key
        .as_ref()
        .and_then(|_| match spec.public_type() {
            Some("datadog") => Some("POST /api/v2/logs"),
            Some("otlp") => Some("POST /v1/logs"),
            Some("splunk") => Some("POST /services/collector/event"),
            _ => None,
        });
    let counts = state.intake_stats.of(&spec.id);
    let buffered = state.intake.as_ref().map(|log| log.info(&spec.id));
    let taking = ingest.is_some();
    IntegrationOut {
        ingest: ingest.map(str::to_owned),
        events_taken: taking.then_some(counts.events),
        requests_refused: taking.then_some(counts.refused),
        buffered_events: buffered.filter(|_| taking).map(|b| b.events),
        buffered_bytes: buffered.filter(|_| taking).map(|b| b.bytes),
        delivers_to: delivers_to(spec),
        id: spec.id.clone(),
        name: spec.name.clone(),
        kind: spec.kind.clone(),
        jobs: jobs
            .iter()
            .filter(|(_, _, used)| used.contains(&spec.id))
            .map(|(id, name, _)| IntegrationJob {
                id: id.clone(),
                name: name.clone(),
            })
            .collect(),
    }
}

/// List the integrations the caller's organization sees, each with the jobs that use it.
#[utoipa::path(
    get, path = "/v1/integrations", operation_id = "listIntegrations", tag = "integrations",
    responses(
        (status = 200, description = "Every integration the organization sees, in the configuration's order (one page: they are few)", body = Items<IntegrationOut>),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<Json<Items<IntegrationOut>>, ApiError> {
    caller.require(Permission::View, Resource::Integrations, &[])?;
    let specs: Vec<&IntegrationSpec> = state
        .config
        .integrations
        .iter()
        .filter(|s| s.visible_to(&caller.organization))
        .collect();
    let jobs = if specs.is_empty() {
        Vec::new()
    } else {
        jobs_using(&state, &caller.organization).await?
    };
    Ok(Json(Items {
        items: specs.into_iter().map(|s| view(&state, s, &jobs)).collect(),
        next_cursor: None,
    }))
}

/// Get one integration, with the jobs that use it; or, when `{id}` is one of the seven type
/// names, the integrations of that type in the public service's shape.
#[utoipa::path(
    get, path = "/v1/integrations/{id}", operation_id = "getIntegration", tag = "integrations",
    params(("id" = String, Path, description = "Integration id, or one of the type names `datadog`, `data-warehouse`, `s3-data-warehouse`, `newrelic`, `otlp`, `splunk`, `sumo` (a type name wins: no integration may have one as its id)")),
    responses(
        (status = 200, description = "The integration (an id); or `{items}`, the organization's integrations of that type in the public service's shape, maybe none (a type name)", body = IntegrationOrTyped),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
        (status = 404, description = "No such integration visible to the caller's organization", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn get(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    caller.require(Permission::View, Resource::Integrations, &[])?;
    if let Some(kind) = PUBLIC_TYPES.iter().find(|t| **t == id) {
        return Ok(Json(of_type(&state, &caller, kind).await?).into_response());
    }
    let spec = visible(&state, &caller, &id, &format!("GET /v1/integrations/{id}"))?;
    let jobs = jobs_using(&state, &caller.organization).await?;
    Ok(Json(view(&state, spec, &jobs)).into_response())
}

/// The integration of id `id` the caller's organization sees; a 404 naming `path` otherwise.
fn visible<'a>(
    state: &'a AppState,
    caller: &Caller,
    id: &str,
    path: &str,
) -> Result<&'a IntegrationSpec, ApiError> {
    state
        .config
        .integrations
        .iter()
        .find(|s| s.id == id && s.visible_to(&caller.organization))
        .ok_or_else(|| {
            ApiError::NotFound(format!(
                "{path}: no integration with id {id:?} for this organization (integrations come from the server's --config `integrations`)"
            ))
        })
}

/// The caller's integrations of public type `kind`, with the jobs that use each.
async fn of_type(
    state: &AppState,
    caller: &Caller,
    kind: &str,
) -> Result<Items<IntegrationRead>, ApiError> {
    let specs: Vec<&IntegrationSpec> = state
        .config
        .integrations
        .iter()
        .filter(|s| s.visible_to(&caller.organization) && s.public_type() == Some(kind))
        .collect();
    let jobs = if specs.is_empty() {
        Vec::new()
    } else {
        jobs_using(state, &caller.organization).await?
    };
    Ok(Items {
        items: specs
            .into_iter()
            .map(|s| read(s, kind, &caller.organization, &jobs))
            .collect(),
        next_cursor: None,
    })
}

/// An integration in the public service's shape.
fn read(
    spec: &IntegrationSpec,
    kind: &str,
    organization: &str,
    jobs: &[(String, String, Vec<String>)],
) -> IntegrationRead {
    IntegrationRead {
        id: spec.id.clone(),
        name: spec.name.clone(),
        kind: kind.to_owned(),
        organization_id: organization.to_owned(),
        payload: spec.payload(),
        job_ids: jobs
            .iter()
            .filter(|(_, _, used)| used.contains(&spec.id))
            .map(|(id, _, _)| id.clone())
            .collect(),
        created_at: CONFIGURATION_READ_AT.clone(),
        updated_at: CONFIGURATION_READ_AT.clone(),
        version: 0,
        team_ids: spec.team_ids.clone(),
    }
}

/// Get one integration of a type, in the public service's shape (as its client's
/// `integration:get` reads it, trying each type in turn).
#[utoipa::path(
    get, path = "/v1/integrations/{type}/{id}", operation_id = "getIntegrationOfType", tag = "integrations",
    params(
        ("type" = String, Path, description = "One of `datadog`, `data-warehouse`, `s3-data-warehouse`, `newrelic`, `otlp`, `splunk`, `sumo`"),
        ("id" = String, Path, description = "Integration id"),
    ),
    responses(
        (status = 200, description = "The integration, in the public service's shape", body = IntegrationRead),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
        (status = 404, description = "Not one of the seven types, no such integration visible to the caller's organization, or one of another type (the message says which)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn get_of_type(
    State(state): State<AppState>,
    caller: Caller,
    Path((kind, id)): Path<(String, String)>,
) -> Result<Json<IntegrationRead>, ApiError> {
    caller.require(Permission::View, Resource::Integrations, &[])?;
    let path = format!("GET /v1/integrations/{kind}/{id}");
    let Some(kind) = PUBLIC_TYPES.iter().find(|t| **t == kind) else {
        return Err(ApiError::NotFound(format!(
            "{path}: {kind:?} is not an integration type; the types are {}",
            PUBLIC_TYPES.join(", ")
        )));
    };
    let spec = visible(&state, &caller, &id, &path)?;
    if spec.public_type() != Some(kind) {
        let actual = match spec.public_type() {
            Some(actual) => format!("of type {actual}: read it at /v1/integrations/{actual}/{id}"),
            None => format!(
                "of type {:?}, none of the seven public types: read it at /v1/integrations/{id}",
                spec.kind
            ),
        };
        return Err(ApiError::NotFound(format!(
            "{path}: integration {id:?} is not a {kind} integration; it is {actual}"
        )));
    }
    let jobs = jobs_using(&state, &caller.organization).await?;
    Ok(Json(read(spec, kind, &caller.organization, &jobs)))
}

/// Where the integration's sinks deliver, as far as it can be shown: a Sumo Logic OTLP
/// source's address holds its token, so only its origin is shown (`https://host/…`).
fn delivers_to(spec: &IntegrationSpec) -> Option<String> {
    let url = spec.delivery_url.as_deref()?;
    if spec.public_type() == Some("sumo") {
        let origin = reqwest::Url::parse(url)
            .ok()
            .map(|u| u.origin().ascii_serialization())
            .filter(|o| o != "null")?;
        return Some(format!("{origin}/…"));
    }
    spec.delivery_key.as_ref().map(|_| url.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::integration_spec::check_integrations;

    fn spec(id: &str) -> IntegrationSpec {
        IntegrationSpec {
            id: id.into(),
            name: "N".into(),
            kind: "splunk".into(),
            organizations: None,
            payload: None,
            ingest_key: None,
            delivery_url: None,
            delivery_key: None,
            team_ids: Vec::new(),
        }
    }

    #[test]
    fn checks_ids_and_finds_uses() {
        assert!(check_integrations(&[spec("a"), spec("b")]).is_ok());
        let twice = check_integrations(&[spec("a"), spec("a")]).unwrap_err();
        assert!(twice.contains("integrations[1].id"), "{twice}");
        assert!(check_integrations(&[spec(" ")]).is_err());
        let graph = serde_json::json!({"vertices": [
            {"type": "logs-sync-sink", "name": "s", "integration": "a"},
            {"type": "logs-sync-sink", "name": "t"},
            {"type": "datadog-log-sink", "name": "u", "integrationId": "b"}
        ]});
        assert_eq!(used_by(&graph), vec!["a", "b"]);
        let mut only = spec("a");
        only.organizations = Some(vec!["acme".into()]);
        assert!(only.visible_to("acme") && !only.visible_to("other"));
    }
}
