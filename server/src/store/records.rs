//! The records the [`Store`](super::Store) reads and writes: clients and tokens, template and
//! job versions, runs as a job listing shows them, listing filters, triggers.

use indexmap::IndexMap;
use jobgraph_core::DraftOutput;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::StoreError;

/// An API client: its id, organization and the Argon2id hash of its secret (PHC string).
#[derive(Clone, PartialEq, Eq)]
pub struct ClientRecord {
    /// The client id (`client_id` of the token request).
    pub client_id: String,
    /// The organization it acts for.
    pub organization: String,
    /// PHC string of the secret's Argon2id hash; never the secret.
    pub secret_hash: String,
    /// What it may do (a service account's roles; `docs/api.md`, "People, login and roles").
    pub grants: Grants,
}

impl std::fmt::Debug for ClientRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientRecord")
            .field("client_id", &self.client_id)
            .field("organization", &self.organization)
            .field("grants", &self.grants)
            .finish_non_exhaustive()
    }
}

/// An issued access token, stored by the SHA-256 of its text (never the text).
#[derive(Clone, PartialEq, Eq)]
pub struct TokenRecord {
    /// SHA-256 of the token.
    pub token_hash: [u8; 32],
    /// The client it was issued to.
    pub client_id: String,
    /// That client's organization.
    pub organization: String,
    /// Expiry, milliseconds since the epoch.
    pub expires_at_ms: i64,
    /// A person's token: the family of the login it came from (revoked with it). `None`: a
    /// client's (client credentials).
    pub family: Option<String>,
    /// The roles of whom it was issued to, as the store has them now (read with the token;
    /// never written with it). `None`: that person or client no longer exists.
    pub grants: Option<Grants>,
}

/// A person's or a client's roles: an organization role (`Admin`, `Member`, `Reader`, or empty
/// for none) and team roles (`Leader`, `Member`) by team id.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Grants {
    /// The organization role; empty: none (team roles only).
    pub role: String,
    /// Team id → team role.
    pub teams: std::collections::BTreeMap<String, String>,
}

impl Grants {
    /// An organization role and no team.
    pub fn role(role: &str) -> Grants {
        Grants {
            role: role.to_owned(),
            teams: Default::default(),
        }
    }

    /// The team roles as the store keeps them (a JSON object).
    pub fn teams_json(&self) -> String {
        serde_json::to_string(&self.teams).unwrap_or_else(|_| "{}".into())
    }

    /// From the stored columns; team roles that do not read back are dropped (they grant
    /// nothing).
    pub fn from_columns(role: String, teams: &str) -> Grants {
        Grants {
            role,
            teams: serde_json::from_str(teams).unwrap_or_default(),
        }
    }

    /// As the permission model sees it; unknown role names grant nothing.
    pub fn subject(&self) -> jobgraph_model::permissions::Subject {
        use jobgraph_model::permissions::{OrgRole, Subject, TeamRole};
        let mut subject = Subject::new(OrgRole::parse(&self.role));
        for (team, role) in &self.teams {
            if let Some(role) = TeamRole::parse(role) {
                subject = subject.with_team(team, role);
            }
        }
        subject
    }
}

impl std::fmt::Debug for TokenRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenRecord")
            .field("client_id", &self.client_id)
            .field("organization", &self.organization)
            .field("expires_at_ms", &self.expires_at_ms)
            .finish_non_exhaustive()
    }
}

/// The fields of a template version that callers write (everything but id, version,
/// organization and times).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TemplateFields {
    /// Human-readable name.
    pub name: String,
    /// Human-readable description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// JSON Schema of the parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_schema: Option<Value>,
    /// The JavaScript source.
    pub template: String,
    /// External input name → `vertex[:port]`.
    #[serde(default)]
    pub inputs: IndexMap<String, String>,
    /// External output name → `vertex[:port]`.
    #[serde(default)]
    pub outputs: IndexMap<String, String>,
    /// Outputs that exist only in draft mode.
    #[serde(default)]
    pub draft_outputs: Vec<DraftOutput>,
}

/// One stored template version.
#[derive(Debug, Clone, PartialEq)]
pub struct TemplateRecord {
    /// Template id.
    pub id: String,
    /// Owning organization.
    pub organization: String,
    /// This version's number.
    pub version: u64,
    /// Whether it is the latest version.
    pub latest: bool,
    /// When version 1 was created (ms since the epoch).
    pub created_at_ms: i64,
    /// When this version was created (ms since the epoch).
    pub updated_at_ms: i64,
    /// `jobgraph_core::Template::source_hash` of this version.
    pub source_hash: String,
    /// The client that wrote this version.
    pub edited_by: String,
    /// The version's fields.
    pub fields: TemplateFields,
    /// The teams the template belongs to (the template's: its latest write sets them);
    /// empty: the organization's.
    pub team_ids: Vec<String>,
}

/// A template version to write.
#[derive(Debug, Clone, PartialEq)]
pub struct NewTemplateVersion {
    /// Owning organization.
    pub organization: String,
    /// The writing client.
    pub edited_by: String,
    /// Its fields.
    pub fields: TemplateFields,
    /// Their source hash.
    pub source_hash: String,
    /// The teams the template belongs to from now on.
    pub team_ids: Vec<String>,
}

/// What a job version says about itself besides its graphs: everything a read returns with
/// the one graph it asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct JobMeta {
    /// Job name.
    pub name: String,
    /// `SYNCHRONOUS` or `ASYNCHRONOUS`.
    pub execution: String,
    /// `BATCH` or `STREAMING`.
    pub processing: String,
    /// What the job is doing (this service runs nothing: `PENDING`).
    pub state: String,
    /// What it was asked to do.
    pub desired_state: String,
    /// Tags, string → string.
    pub tags: Map<String, Value>,
    /// Ids of every template the resolution used (nested ones too).
    pub templates: Vec<String>,
    /// The client that wrote this version.
    pub edited_by: String,
    /// The teams the job belongs to (the job's, not the version's: a new version sets them);
    /// empty: the organization's.
    pub team_ids: Vec<String>,
}

/// What a job version holds besides its id, version and times: what a write stores.
#[derive(Debug, Clone, PartialEq)]
pub struct JobFields {
    /// Name, states, tags, templates used, author.
    pub meta: JobMeta,
    /// The job graph as submitted.
    pub definition: Value,
    /// The job graph with every template operation resolved.
    pub resolved: Value,
    /// An asynchronous version that fails is followed by a version made from the one before
    /// it (`PUT …?rollbackEnabled=true`).
    pub rollback: bool,
    /// An asynchronous version's shards: above 1, it runs as that many partitions of its
    /// integration's events (`docs/intake.md`, "Partitions").
    pub shards: u32,
}

/// Which of a job version's two graphs a read returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GraphForm {
    /// The graph as submitted.
    #[default]
    Submitted,
    /// The graph with every template operation resolved (`?resolved=true`).
    Resolved,
}

/// One stored job version, with one of its graphs.
#[derive(Debug, Clone)]
pub struct JobRecord {
    /// Job id.
    pub id: String,
    /// Owning organization.
    pub organization: String,
    /// This version's number.
    pub version: u64,
    /// Whether it is the latest version.
    pub latest: bool,
    /// When version 1 was created.
    pub created_at_ms: i64,
    /// When this version was created.
    pub updated_at_ms: i64,
    /// Name, states, tags, templates used, author.
    pub meta: JobMeta,
    /// The graph the read asked for, as the JSON text the store keeps: answers copy it
    /// without parsing it (a listing of many jobs is mostly graphs).
    pub graph: Box<RawValue>,
    /// What running it did so far (an asynchronous job's version; `None` for others).
    pub run: Option<RunInfo>,
}

/// An asynchronous job version's run as a job's answer shows it.
#[derive(Debug, Clone)]
pub struct RunInfo {
    /// When it started running.
    pub started_at_ms: Option<i64>,
    /// When it ended (finished, failed, retired or stopped for good).
    pub ended_at_ms: Option<i64>,
    /// `HEALTHY`, `STABILIZING`, `UNHEALTHY` or `UNKNOWN`.
    pub health: String,
    /// Why it is unhealthy or failed; empty otherwise.
    pub message: String,
    /// Its counters (`pipelineStatus`), as JSON text.
    pub status: Box<RawValue>,
}

/// Filters of a job listing; empty lists and `None` filter nothing.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct JobFilter {
    /// Any of these `processing` values.
    pub processing: Vec<String>,
    /// Any of these `execution` values.
    pub execution: Vec<String>,
    /// Any of these states.
    pub states: Vec<String>,
    /// Exactly this name.
    pub name: Option<String>,
    /// Versions written at or after this time (ms since the epoch).
    pub since_ms: Option<i64>,
    /// Any of these ids.
    pub ids: Vec<String>,
    /// Every version instead of the latest of each job.
    pub all_versions: bool,
}

impl TemplateRecord {
    /// The record a write returns: version `version` of `id`, the latest.
    pub(super) fn written(
        id: String,
        version: u64,
        (created_at_ms, updated_at_ms): (i64, i64),
        new: NewTemplateVersion,
    ) -> TemplateRecord {
        TemplateRecord {
            id,
            organization: new.organization,
            version,
            latest: true,
            created_at_ms,
            updated_at_ms,
            source_hash: new.source_hash,
            edited_by: new.edited_by,
            fields: new.fields,
            team_ids: new.team_ids,
        }
    }
}

impl JobRecord {
    /// The record a write returns: the latest version, with the submitted graph.
    pub(super) fn written(
        id: String,
        organization: String,
        version: u64,
        (created_at_ms, updated_at_ms): (i64, i64),
        fields: JobFields,
    ) -> Result<JobRecord, StoreError> {
        Ok(JobRecord {
            id,
            organization,
            version,
            latest: true,
            created_at_ms,
            updated_at_ms,
            meta: fields.meta,
            graph: serde_json::value::to_raw_value(&fields.definition)
                .map_err(|e| StoreError::Backend(e.to_string()))?,
            run: None,
        })
    }
}

/// A trigger, as stored.
#[derive(Debug, Clone)]
pub struct TriggerRecord {
    /// Its id.
    pub id: String,
    /// The organization of the job it names.
    pub organization: String,
    /// The job it names.
    pub job_id: String,
    /// Its payload (any JSON value).
    pub payload: Value,
}
