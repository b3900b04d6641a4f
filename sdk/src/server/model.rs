//! The shapes the API answers with (and documents in `/openapi.json`). The types are defined
//! once in [`crate::api`], shared with the client; here is how records become them.

use serde::Serialize;
use utoipa::ToSchema;

pub use crate::api::{Items, JobOut, TemplateOut, TemplateSummary, TriggerAccepted};

use super::ids::iso8601;
use super::store::{JobRecord, TemplateFields, TemplateRecord};

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

/// `GET /healthz`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`.
    pub status: &'static str,
}
