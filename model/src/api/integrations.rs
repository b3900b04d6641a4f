//! Integrations in the public service's shape: what `GET /v1/integrations/{type}` and
//! `GET /v1/integrations/{type}/{id}` answer (`docs/api.md`, "Integrations"), for the public
//! client, which reads integrations type by type.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The integration types the public client walks (`GET /v1/integrations/{type}`), in its
/// order.
pub const INTEGRATION_TYPES: [&str; 7] = [
    "datadog",
    "data-warehouse",
    "s3-data-warehouse",
    "newrelic",
    "otlp",
    "splunk",
    "sumo",
];

/// An integration of one of the [`INTEGRATION_TYPES`], in the public service's shape (its
/// `ReadDatadog`, `ReadSplunk`, … schemas). `jobgraph serve` derives every field from the
/// integration's declaration in its `--config` file.
///
/// ```
/// use jobgraph_model::api::IntegrationRead;
/// let text = r#"{"id": "dd-prod", "name": "Datadog", "type": "datadog",
///   "organizationId": "acme", "payload": {"site": "datadoghq.com"}, "jobIds": [],
///   "createdAt": "2026-11-26T00:00:00Z", "updatedAt": "2026-11-26T00:00:00Z", "version": 0}"#;
/// let read: IntegrationRead = serde_json::from_str(text).unwrap();
/// assert_eq!(read.kind, "datadog");
/// assert!(read.team_ids.is_empty());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct IntegrationRead {
    /// The integration's id (its `id` in the configuration).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub id: String,
    /// Its name.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub name: String,
    /// One of the [`INTEGRATION_TYPES`] (its configured `type`, mapped: `s3` is
    /// `s3-data-warehouse`, …).
    #[serde(default, rename = "type")]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub kind: String,
    /// The caller's organization.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub organization_id: String,
    /// The settings of its type: the fields the public schema requires, with defaults, and
    /// the configuration's `payload` over them.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true, value_type = Object))]
    pub payload: Map<String, Value>,
    /// The ids of the caller organization's live jobs whose latest resolved graph names it
    /// (a vertex whose `integration` is its id), oldest first.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub job_ids: Vec<String>,
    /// When the serving process read its configuration (integrations are not stored), ISO
    /// 8601.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub created_at: String,
    /// The same as `createdAt`: a configured integration changes only with the configuration.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub updated_at: String,
    /// Always 0: a configured integration has no stored versions.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub version: u64,
    /// The teams it belongs to (`teamIds` in the service's configuration); empty: the
    /// organization's.
    #[serde(default)]
    pub team_ids: Vec<String>,
}
