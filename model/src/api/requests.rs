//! What the client sends. The service reads bodies field by field (so that a 400 names the
//! field) and documents them in `/openapi.json`; `sdk/tests/client/endpoints.rs` checks that every field
//! these types write is a documented one.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A template's fields, as `POST /v1/templates`, `PUT /v1/templates/{id}` and the `template`
/// of `POST /v1/templates/test` take them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TemplateInput {
    /// Update only: the version this write creates (N+1 when the current one is N); the
    /// service answers 409 with the current version otherwise. `None` appends.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<u64>,
    /// Name; required on create and update, optional in a test (empty: left out).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// Description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The parameters' JSON Schema.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_schema: Option<Value>,
    /// The JavaScript source whose final expression is the job graph.
    pub template: String,
    /// External input name → internal target `vertex[:port]`.
    pub inputs: IndexMap<String, String>,
    /// External output name → internal source `vertex[:port]`.
    pub outputs: IndexMap<String, String>,
    /// Outputs that exist only in draft mode.
    pub draft_outputs: Vec<crate::DraftOutput>,
    /// Create and update: the teams it belongs to (`None`: none on a create, unchanged on an
    /// update).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub team_ids: Option<Vec<String>>,
}

impl From<crate::Template> for TemplateInput {
    /// The fields a template file holds; its `id`, `version`, organization and times are
    /// the service's to assign, so they are left out.
    fn from(template: crate::Template) -> Self {
        TemplateInput {
            version: None,
            name: template.name,
            description: template.description,
            input_schema: template.input_schema,
            template: template.template,
            inputs: template.inputs,
            outputs: template.outputs,
            draft_outputs: template.draft_outputs,
            team_ids: None,
        }
    }
}

/// The body of `POST /v1/templates/test`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TemplateTest {
    /// The template to run (`name` optional).
    pub template: TemplateInput,
    /// Input values and draft mode.
    pub input: TestValues,
    /// Fail unless the result is a valid job graph.
    pub check_valid_job_graph: bool,
}

/// `input` of a test request.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TestValues {
    /// Draft mode.
    pub is_draft: bool,
    /// Parameter values, checked against the template's `inputSchema`.
    pub values: Map<String, Value>,
}

/// How a job runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Execution {
    /// Streams results to the caller (`POST /v1/jobs/sync`).
    #[serde(rename = "SYNCHRONOUS")]
    Synchronous,
    /// Runs in the background.
    #[default]
    #[serde(rename = "ASYNCHRONOUS")]
    Asynchronous,
}

/// What a job processes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Processing {
    /// A bounded set of data.
    #[serde(rename = "BATCH")]
    Batch,
    /// Data as it arrives.
    #[default]
    #[serde(rename = "STREAMING")]
    Streaming,
}

impl Execution {
    /// The wire name (`SYNCHRONOUS`, `ASYNCHRONOUS`).
    pub fn as_str(self) -> &'static str {
        match self {
            Execution::Synchronous => "SYNCHRONOUS",
            Execution::Asynchronous => "ASYNCHRONOUS",
        }
    }
}

impl Processing {
    /// The wire name (`BATCH`, `STREAMING`).
    pub fn as_str(self) -> &'static str {
        match self {
            Processing::Batch => "BATCH",
            Processing::Streaming => "STREAMING",
        }
    }
}

/// The body of `POST /v1/jobs` (and `/v1/jobs/async`, `/v1/jobs/sync`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateJob {
    /// Name (required, non-empty).
    pub name: String,
    /// How it runs.
    pub execution: Execution,
    /// What it processes.
    pub processing: Processing,
    /// The job graph `{vertices, edges}`; its template operations are resolved by the
    /// service.
    pub job_graph: Value,
    /// Tags, string → string.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Map<String, Value>>,
    /// What the job should do (default `RUNNING`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub desired_state: Option<String>,
    /// The teams it belongs to (default: none, the organization's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team_ids: Option<Vec<String>>,
}

/// The body of `PUT /v1/jobs/{id}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct UpdateJob {
    /// The version this update is based on; another current version is a 409.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from_version: Option<u64>,
    /// The new graph (`None`: the current definition, resolved again).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub job_graph: Option<Value>,
    /// Default: unchanged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desired_state: Option<String>,
    /// Default: unchanged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Default: unchanged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tags: Option<Map<String, Value>>,
    /// Default: unchanged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub team_ids: Option<Vec<String>>,
}
