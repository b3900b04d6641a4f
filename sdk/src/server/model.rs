//! The shapes the API answers with (and documents in `/openapi.json`).

use indexmap::IndexMap;
use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;

use super::ids::iso8601;
use super::request_docs::{DraftOutputDoc, JobGraphDoc};
use super::store::{JobRecord, TemplateFields, TemplateRecord};

/// A list: `{items: […]}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Items<T> {
    /// The elements.
    pub items: Vec<T>,
}

/// One template version.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TemplateOut {
    /// Template id (16 URL-safe characters).
    pub id: String,
    /// Name.
    pub name: String,
    /// Description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// This version (1, 2, …).
    pub version: u64,
    /// Owning organization.
    pub organization_id: String,
    /// When version 1 was created (ISO 8601 UTC).
    pub created_at: String,
    /// When this version was created (ISO 8601 UTC).
    pub updated_at: String,
    /// The parameters' JSON Schema.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub input_schema: Option<Value>,
    /// The script.
    pub template: String,
    /// Input map.
    #[schema(value_type = BTreeMap<String, String>)]
    pub inputs: IndexMap<String, String>,
    /// Output map.
    #[schema(value_type = BTreeMap<String, String>)]
    pub outputs: IndexMap<String, String>,
    /// Draft outputs.
    #[schema(value_type = Vec<DraftOutputDoc>)]
    pub draft_outputs: Vec<jobgraph_core::DraftOutput>,
    /// SHA-256 of the script and the schema (`Template::source_hash`).
    pub source_hash: String,
    /// Whether this is the latest version.
    pub is_latest: bool,
    /// Same as `isLatest` (the public client reads either).
    pub latest: bool,
    /// The client that wrote this version.
    pub edited_by: String,
}

impl From<TemplateRecord> for TemplateOut {
    fn from(record: TemplateRecord) -> Self {
        let TemplateFields {
            name,
            description,
            input_schema,
            template,
            inputs,
            outputs,
            draft_outputs,
        } = record.fields;
        TemplateOut {
            id: record.id,
            name,
            description,
            version: record.version,
            organization_id: record.organization,
            created_at: iso8601(record.created_at_ms),
            updated_at: iso8601(record.updated_at_ms),
            input_schema,
            template,
            inputs,
            outputs,
            draft_outputs,
            source_hash: record.source_hash,
            is_latest: record.latest,
            latest: record.latest,
            edited_by: record.edited_by,
        }
    }
}

/// A template in a list: its latest version, without the script.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TemplateSummary {
    /// Template id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Latest version.
    pub version: u64,
    /// Owning organization.
    pub organization_id: String,
    /// When version 1 was created.
    pub created_at: String,
    /// When the latest version was created.
    pub updated_at: String,
}

impl From<TemplateRecord> for TemplateSummary {
    fn from(record: TemplateRecord) -> Self {
        TemplateSummary {
            id: record.id,
            name: record.fields.name,
            description: record.fields.description,
            version: record.version,
            organization_id: record.organization,
            created_at: iso8601(record.created_at_ms),
            updated_at: iso8601(record.updated_at_ms),
        }
    }
}

/// A job version.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobOut {
    /// Job id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Owning organization.
    pub organization_id: String,
    /// `SYNCHRONOUS` or `ASYNCHRONOUS`.
    pub execution: String,
    /// `BATCH` or `STREAMING`.
    pub processing: String,
    /// Always `PENDING`: this service stores and resolves jobs and runs none.
    pub state: String,
    /// What the job was asked to do (`RUNNING` by default).
    pub desired_state: String,
    /// The graph as submitted, or resolved with `?resolved=true`.
    #[schema(value_type = JobGraphDoc)]
    pub job_graph: Value,
    /// Tags.
    #[schema(value_type = Object)]
    pub tags: Map<String, Value>,
    /// When version 1 was created.
    pub created_at: String,
    /// When this version was created.
    pub updated_at: String,
    /// This version.
    pub version: u64,
    /// The client that wrote this version.
    pub edited_by: String,
    /// Whether this is the latest version.
    pub is_latest: bool,
    /// Ids of the templates its resolution used.
    pub template_ids: Vec<String>,
}

impl JobOut {
    /// The API form of a record, with the submitted or the resolved graph.
    pub fn new(record: JobRecord, resolved: bool) -> Self {
        let fields = record.fields;
        JobOut {
            id: record.id,
            name: fields.name,
            organization_id: record.organization,
            execution: fields.execution,
            processing: fields.processing,
            state: fields.state,
            desired_state: fields.desired_state,
            job_graph: if resolved {
                fields.resolved
            } else {
                fields.definition
            },
            tags: fields.tags,
            created_at: iso8601(record.created_at_ms),
            updated_at: iso8601(record.updated_at_ms),
            version: record.version,
            edited_by: fields.edited_by,
            is_latest: record.latest,
            template_ids: fields.templates,
        }
    }
}

/// `202` of `POST /v1/triggers`.
#[derive(Debug, Serialize, ToSchema)]
pub struct TriggerAccepted {
    /// The trigger's id.
    pub id: String,
}

/// `GET /healthz`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`.
    pub status: &'static str,
}
