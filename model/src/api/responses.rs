//! What the service answers with.
//!
//! Every field of an answer type has a serde default, so a client reads an answer that
//! leaves fields out (another version of the service, the public service) instead of failing
//! on it. (Field-level rather than container-level: utoipa would otherwise document a
//! `default` for every field of an answer; `required` is stated where the service always
//! answers with the field.)

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A list, one page of it: `{items: […], nextCursor?}`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Items<T> {
    /// The elements.
    #[serde(default = "Vec::new")]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub items: Vec<T>,
    /// Present when more items follow: pass it as the `cursor` query parameter to get the next
    /// page (opaque; absent on the last page).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// One template version.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct TemplateOut {
    /// Template id (16 URL-safe characters).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub id: String,
    /// Name.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub name: String,
    /// Description.
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// This version (1, 2, …).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub version: u64,
    /// Owning organization.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub organization_id: String,
    /// When version 1 was created (ISO 8601 UTC).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub created_at: String,
    /// When this version was created (ISO 8601 UTC).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub updated_at: String,
    /// The parameters' JSON Schema.
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub input_schema: Option<Value>,
    /// The script.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub template: String,
    /// Input map.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true, value_type = BTreeMap<String, String>))]
    pub inputs: IndexMap<String, String>,
    /// Output map.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true, value_type = BTreeMap<String, String>))]
    pub outputs: IndexMap<String, String>,
    /// Draft outputs.
    #[serde(default)]
    #[cfg_attr(
        feature = "openapi",
        schema(required = true, value_type = Vec<super::request_docs::DraftOutputDoc>)
    )]
    pub draft_outputs: Vec<crate::DraftOutput>,
    /// SHA-256 of the script and the schema (`Template::source_hash`).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub source_hash: String,
    /// Whether this is the latest version.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub is_latest: bool,
    /// Same as `isLatest` (the public client reads either).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub latest: bool,
    /// The client that wrote this version.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub edited_by: String,
    /// The teams the template belongs to; empty: the organization's (`docs/api.md`,
    /// "People, login and roles").
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub team_ids: Vec<String>,
}

impl TemplateOut {
    /// The resolver's form of this version (`crate::Template`).
    pub fn into_template(self) -> crate::Template {
        crate::Template {
            id: self.id,
            version: self.version,
            name: self.name,
            description: self.description,
            organization_id: Some(self.organization_id).filter(|o| !o.is_empty()),
            created_at: Some(self.created_at).filter(|t| !t.is_empty()),
            updated_at: Some(self.updated_at).filter(|t| !t.is_empty()),
            input_schema: self.input_schema,
            template: self.template,
            inputs: self.inputs,
            outputs: self.outputs,
            draft_outputs: self.draft_outputs,
        }
    }
}

/// A template in a list: its latest version, without the script.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct TemplateSummary {
    /// Template id.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub id: String,
    /// Name.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub name: String,
    /// Description.
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Latest version.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub version: u64,
    /// Owning organization.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub organization_id: String,
    /// When version 1 was created.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub created_at: String,
    /// When the latest version was created.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub updated_at: String,
}

/// A job version.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct JobOut {
    /// Job id.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub id: String,
    /// Name.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub name: String,
    /// Owning organization.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub organization_id: String,
    /// `SYNCHRONOUS` or `ASYNCHRONOUS`.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub execution: String,
    /// `BATCH` or `STREAMING`.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub processing: String,
    /// Where the version is in its lifecycle: `PENDING` until it runs, then `RUNNING`,
    /// `STOPPING`, `STOPPED`, `FINISHED` or `FAILED` (a synchronous job stays `PENDING`: it runs
    /// with `POST /v1/jobs/sync`).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub state: String,
    /// What the job was asked to do (`RUNNING` by default).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub desired_state: String,
    /// The graph as submitted, or resolved with `?resolved=true`.
    #[serde(default)]
    #[cfg_attr(
        feature = "openapi",
        schema(required = true, value_type = super::request_docs::JobGraphDoc)
    )]
    pub job_graph: Value,
    /// Tags.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true, value_type = Object))]
    pub tags: Map<String, Value>,
    /// When version 1 was created.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub created_at: String,
    /// When this version was created.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub updated_at: String,
    /// This version.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub version: u64,
    /// The client that wrote this version.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub edited_by: String,
    /// Whether this is the latest version.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub is_latest: bool,
    /// Ids of the templates its resolution used.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub template_ids: Vec<String>,
    /// The teams the job belongs to; empty: the organization's (`docs/api.md`, "People,
    /// login and roles").
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub team_ids: Vec<String>,
    /// When this version started running (an asynchronous job that ran).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<String>,
    /// When this version's run ended: finished, failed, or retired by an update.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended_at: Option<String>,
    /// The run's health (`HEALTHY`, `STABILIZING`, `UNHEALTHY`, `UNKNOWN`), its `message`,
    /// and its counters: events and bytes in and out per vertex, errors, lag, checkpoints
    /// (an asynchronous job's version).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub pipeline_status: Option<Value>,
}

/// `202` of `POST /v1/triggers`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TriggerAccepted {
    /// The trigger's id.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub id: String,
}

/// An error body: `{"error": "…", "message": "…"}` and, depending on the error, more.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ErrorBody {
    /// What went wrong. For resolution and test errors it starts with the contract prefix
    /// (`Template not found`, `Input validation failed`, `JavaScript execution failed`, …);
    /// for `POST /oauth/token` it is the RFC 6749 error code.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub error: String,
    /// The same text as `error` (RFC 6749 errors: the description).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub message: String,
    /// RFC 6749 errors: what is wrong, in words (named as RFC 6749 §5.2 names it).
    #[serde(default)]
    #[serde(rename = "error_description", skip_serializing_if = "Option::is_none")]
    pub error_description: Option<String>,
    /// Resolution errors: a stable code such as `TEMPLATE_NOT_FOUND`.
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// 409: the current version of the template or job.
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_version: Option<u64>,
}
