//! The shapes the API answers with (and documents in `/openapi.json`). The types are defined
//! once in [`jobgraph_sdk::api`], shared with the client; here is how records become them.

use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use utoipa::ToSchema;

pub use jobgraph_sdk::api::{Items, JobOut, TemplateOut, TemplateSummary, TriggerAccepted};

use crate::ids::iso8601;
use crate::store::{JobRecord, RunInfo, TemplateFields, TemplateRecord};

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
            team_ids: record.team_ids,
        }
    }
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

/// A job version as the API answers it: the fields of [`JobOut`] (which documents it in
/// `/openapi.json` and which the client reads), with the graph copied from the store as JSON
/// text instead of parsed and serialized again. A test checks that both serialize alike.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JobView {
    id: String,
    name: String,
    organization_id: String,
    execution: String,
    processing: String,
    state: String,
    desired_state: String,
    job_graph: Box<RawValue>,
    tags: Map<String, Value>,
    created_at: String,
    updated_at: String,
    version: u64,
    edited_by: String,
    is_latest: bool,
    template_ids: Vec<String>,
    team_ids: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    started_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ended_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pipeline_status: Option<Value>,
}

/// `pipelineStatus`: the health and message, then the counters the run wrote.
fn pipeline_status(run: &RunInfo) -> Value {
    let mut status = Map::new();
    status.insert("health".into(), Value::String(run.health.clone()));
    status.insert("message".into(), Value::String(run.message.clone()));
    if let Ok(Value::Object(counters)) = serde_json::from_str::<Value>(run.status.get()) {
        status.extend(counters);
    }
    Value::Object(status)
}

impl From<JobRecord> for JobView {
    fn from(record: JobRecord) -> Self {
        let meta = record.meta;
        JobView {
            id: record.id,
            name: meta.name,
            organization_id: record.organization,
            execution: meta.execution,
            processing: meta.processing,
            state: meta.state,
            desired_state: meta.desired_state,
            job_graph: record.graph,
            tags: meta.tags,
            created_at: iso8601(record.created_at_ms),
            updated_at: iso8601(record.updated_at_ms),
            version: record.version,
            edited_by: meta.edited_by,
            is_latest: record.latest,
            template_ids: meta.templates,
            team_ids: meta.team_ids,
            started_at: record
                .run
                .as_ref()
                .and_then(|r| r.started_at_ms)
                .map(iso8601),
            ended_at: record.run.as_ref().and_then(|r| r.ended_at_ms).map(iso8601),
            pipeline_status: record.run.as_ref().map(pipeline_status),
        }
    }
}

/// `GET /healthz`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`.
    pub status: &'static str,
    /// The store it runs on and found answering: `sqlite` or `postgres`.
    pub database: &'static str,
    /// Where agents' logs are kept: `embedded` (the data folder's intake log), `jetstream`
    /// (`intake.nats`, connected), `jetstream-unreachable` (not connected now: intake answers
    /// 503 until it is; the rest of the API works), or absent (no intake log).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub intake: Option<&'static str>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::JobMeta;

    /// `JobView` is what the server sends, `JobOut` what `/openapi.json` documents and the
    /// client reads: a field one has and the other lacks shows up as a difference here.
    #[test]
    fn a_job_view_serializes_as_the_documented_job_out() {
        let record = JobRecord {
            id: "j1".into(),
            organization: "acme".into(),
            version: 3,
            latest: true,
            created_at_ms: 1_700_000_000_000,
            updated_at_ms: 1_700_000_360_000,
            meta: JobMeta {
                name: "nightly".into(),
                execution: "ASYNCHRONOUS".into(),
                processing: "BATCH".into(),
                state: "PENDING".into(),
                desired_state: "RUNNING".into(),
                tags: serde_json::from_str(r#"{"team":"data"}"#).unwrap(),
                templates: vec!["t1".into()],
                edited_by: "ci".into(),
                team_ids: vec!["devops".into()],
            },
            graph: RawValue::from_string(
                r#"{"vertices":[{"type":"x","name":"a"}],"edges":[]}"#.into(),
            )
            .unwrap(),
            run: Some(crate::store::RunInfo {
                started_at_ms: Some(1_700_000_400_000),
                ended_at_ms: None,
                health: "HEALTHY".into(),
                message: String::new(),
                status: RawValue::from_string(r#"{"checkpoints":2}"#.into()).unwrap(),
            }),
        };
        let sent = serde_json::to_value(JobView::from(record)).unwrap();
        let documented: JobOut = serde_json::from_value(sent.clone()).unwrap();
        assert_eq!(serde_json::to_value(&documented).unwrap(), sent);
        assert_eq!(sent["jobGraph"]["vertices"][0]["name"], "a");
        assert_eq!(sent["templateIds"][0], "t1");
        assert_eq!(sent["pipelineStatus"]["health"], "HEALTHY");
        assert_eq!(sent["pipelineStatus"]["checkpoints"], 2);
        assert!(sent["startedAt"].is_string() && sent.get("endedAt").is_none());
    }
}
