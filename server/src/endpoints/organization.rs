//! `GET /v1/organization`: the caller's organization as the public client reads it. The
//! newest public client asks for it before a `query` (to look for a feature flag that picks
//! its query engine) unless `GREPR_QUERY_ENGINE` is set; it reads `featureFlags` only.

use axum::Json;
use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;

use crate::auth::Caller;
use crate::error::ErrorBody;

/// The caller's organization: its name and the feature flags on for it (none here). The
/// public service's `accessConfig`, `constraints` and `plan` are present and empty: this
/// service has no plans, and its limits are the server's settings (docs/api.md).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrganizationOut {
    /// The organization's id, as tokens carry it.
    pub name: String,
    /// Feature flags on for the organization: always empty.
    pub feature_flags: Vec<String>,
    /// Always `{}`.
    #[schema(value_type = Object)]
    pub access_config: Map<String, Value>,
    /// Always `{}`.
    #[schema(value_type = Object)]
    pub constraints: Map<String, Value>,
    /// Always `{}`.
    #[schema(value_type = Object)]
    pub plan: Map<String, Value>,
}

/// The caller's organization.
#[utoipa::path(
    get, path = "/v1/organization", operation_id = "getOrganization", tag = "service",
    responses(
        (status = 200, description = "The caller's organization: `name` and `featureFlags` (none); `accessConfig`, `constraints` and `plan` are empty objects", body = OrganizationOut),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn get(caller: Caller) -> Json<OrganizationOut> {
    Json(OrganizationOut {
        name: caller.organization.clone(),
        feature_flags: Vec::new(),
        access_config: Map::new(),
        constraints: Map::new(),
        plan: Map::new(),
    })
}
