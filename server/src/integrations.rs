//! `/v1/integrations`: the integrations of the `--config` file (`integrations`), each with the
//! caller organization's jobs that use it — derived from the jobs' stored (resolved) graphs:
//! a vertex whose `integration` field is the integration's id (`logs-sync-sink` has it).

use axum::Json;
use axum::extract::{Path, State};
use serde_json::Value;

use super::auth::Caller;
use super::error::{ApiError, ErrorBody};
use super::integration_spec::IntegrationSpec;
use super::state::AppState;
use super::store::{GraphForm, JobFilter, PageKey, PageRequest};
use jobgraph_sdk::api::{IntegrationJob, IntegrationOut, Items};

/// The integration ids a job graph uses: every vertex's string `integration` field.
fn used_by(graph: &Value) -> Vec<&str> {
    graph
        .get("vertices")
        .and_then(Value::as_array)
        .map(|vertices| {
            vertices
                .iter()
                .filter_map(|v| v.get("integration").and_then(Value::as_str))
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

fn view(spec: &IntegrationSpec, jobs: &[(String, String, Vec<String>)]) -> IntegrationOut {
    IntegrationOut {
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
        items: specs.into_iter().map(|s| view(s, &jobs)).collect(),
        next_cursor: None,
    }))
}

/// Get one integration, with the jobs that use it.
#[utoipa::path(
    get, path = "/v1/integrations/{id}", operation_id = "getIntegration", tag = "integrations",
    params(("id" = String, Path, description = "Integration id")),
    responses(
        (status = 200, description = "The integration", body = IntegrationOut),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
        (status = 404, description = "No such integration visible to the caller's organization", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn get(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<IntegrationOut>, ApiError> {
    let spec = state
        .config
        .integrations
        .iter()
        .find(|s| s.id == id && s.visible_to(&caller.organization))
        .ok_or_else(|| {
            ApiError::NotFound(format!(
                "no integration with id {id:?} for this organization (integrations come from the server's --config `integrations`)"
            ))
        })?;
    let jobs = jobs_using(&state, &caller.organization).await?;
    Ok(Json(view(spec, &jobs)))
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
            {"type": "logs-sync-sink", "name": "t"}
        ]});
        assert_eq!(used_by(&graph), vec!["a"]);
        let mut only = spec("a");
        only.organizations = Some(vec!["acme".into()]);
        assert!(only.visible_to("acme") && !only.visible_to("other"));
    }
}
