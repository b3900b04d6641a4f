//! Storage behind the service: the [`Store`] trait and its SQLite implementation.
//!
//! Handlers only see [`Store`]: every method is asynchronous (a boxed `Send` future, so the
//! trait is object-safe and a store is shared as `Arc<dyn Store>`), takes the organization
//! explicitly, and reports the outcomes handlers must tell apart (not found, version conflict)
//! as [`StoreError`] variants. A PostgreSQL store (several replicas sharing one database)
//! implements the same trait: optimistic versioning is `INSERT … (id, version)` under a primary
//! key plus a `SELECT … FOR UPDATE` of the template's row, which is what the SQLite store does
//! with `BEGIN IMMEDIATE`.

mod datasets;
mod methods;
mod ops;
mod paging;
#[cfg(feature = "postgres")]
mod postgres;
mod runs;
mod schema;
mod sql;
mod sqlite;

use std::future::Future;
use std::pin::Pin;

use indexmap::IndexMap;
use jobgraph_core::DraftOutput;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

pub use datasets::{DatasetFields, DatasetRecord, FileKey, LakeFileRecord};
pub(crate) use paging::PageFill;
pub use paging::{PageKey, PageRequest, Paged};
#[cfg(feature = "postgres")]
pub use postgres::{PostgresOptions, PostgresStore};
pub use runs::{Checkpoint, RunChange, RunControl, RunRecord, SinkCommit};
pub use sqlite::{Access, OpenError, SqliteStore, Synchronous};

/// The future every [`Store`] method returns.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// What a store call can fail with.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// No such (live) resource in this organization.
    #[error("not found")]
    NotFound,
    /// An optimistic version check failed; `current` is the latest version.
    #[error("version conflict: the current version is {current}")]
    Conflict {
        /// The latest version now.
        current: u64,
    },
    /// A unique key is taken (a live dataset of the organization has this name); the text
    /// says which, for the client.
    #[error("{0}")]
    Duplicate(String),
    /// The database cannot be reached now (connection lost or refused, pool exhausted past
    /// its wait timeout): a 503, and the next request tries again.
    #[error("the database is unavailable: {0}")]
    Unavailable(String),
    /// The database failed; the text is for the server's log, never for a client.
    #[error("storage failed: {0}")]
    Backend(String),
}

/// An API client: its id, organization and the Argon2id hash of its secret (PHC string).
#[derive(Clone, PartialEq, Eq)]
pub struct ClientRecord {
    /// The client id (`client_id` of the token request).
    pub client_id: String,
    /// The organization it acts for.
    pub organization: String,
    /// PHC string of the secret's Argon2id hash; never the secret.
    pub secret_hash: String,
}

impl std::fmt::Debug for ClientRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientRecord")
            .field("client_id", &self.client_id)
            .field("organization", &self.organization)
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
    fn written(
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
        }
    }
}

impl JobRecord {
    /// The record a write returns: the latest version, with the submitted graph.
    fn written(
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

/// The storage the service runs on. Every method is scoped to one organization: a record of
/// another organization is [`StoreError::NotFound`], as is a deleted one.
pub trait Store: Send + Sync + 'static {
    /// Which database this is, for `/healthz` and the start-up banner (`sqlite`, `postgres`).
    fn kind(&self) -> &'static str;
    /// Whether this process alone writes the database, so that a row it read stays as read
    /// until this process writes it (SQLite opened [`Access::Exclusive`]); not when replicas or
    /// other processes share it.
    fn sole_writer(&self) -> bool {
        false
    }
    /// Whether the database answers now (`/healthz`).
    fn ping(&self) -> StoreFuture<'_, ()>;
    /// Adds a client or replaces its secret hash and organization.
    fn put_client(&self, client: ClientRecord) -> StoreFuture<'_, ()>;
    /// A client by id.
    fn client(&self, client_id: String) -> StoreFuture<'_, Option<ClientRecord>>;
    /// How many clients exist.
    fn client_count(&self) -> StoreFuture<'_, u64>;
    /// Stores an issued token (and forgets tokens that expired long ago).
    fn put_token(&self, token: TokenRecord) -> StoreFuture<'_, ()>;
    /// A token by the SHA-256 of its text (expired ones too: the caller checks).
    fn token(&self, token_hash: [u8; 32]) -> StoreFuture<'_, Option<TokenRecord>>;
    /// Every client id, sorted.
    fn client_ids(&self) -> StoreFuture<'_, Vec<String>>;
    /// Removes a client and every token issued to it: how many tokens went.
    fn delete_client(&self, client_id: String) -> StoreFuture<'_, u64>;
    /// Removes every token issued to a client (its secret or organization changed): how many
    /// went.
    fn delete_client_tokens(&self, client_id: String) -> StoreFuture<'_, u64>;
    /// Removes one token (revocation): whether it existed.
    fn delete_token(&self, token_hash: [u8; 32]) -> StoreFuture<'_, bool>;

    /// Creates a template at version 1 under a new id.
    fn create_template(
        &self,
        id: String,
        new: NewTemplateVersion,
    ) -> StoreFuture<'_, TemplateRecord>;
    /// Appends version N+1; with `expected`, fails with [`StoreError::Conflict`] unless it is
    /// N+1.
    fn append_template(
        &self,
        id: String,
        expected: Option<u64>,
        new: NewTemplateVersion,
    ) -> StoreFuture<'_, TemplateRecord>;
    /// One version (`None`: the latest) of a live template.
    fn template(
        &self,
        organization: String,
        id: String,
        version: Option<u64>,
    ) -> StoreFuture<'_, TemplateRecord>;
    /// A page of the versions of a live template, oldest first ([`StoreError::NotFound`] when
    /// the template is not there, even for a page past its last version).
    fn template_versions(
        &self,
        organization: String,
        id: String,
        page: PageRequest,
    ) -> StoreFuture<'_, Paged<TemplateRecord>>;
    /// A page of the latest versions of the organization's live templates, oldest template
    /// first.
    fn list_templates(
        &self,
        organization: String,
        page: PageRequest,
    ) -> StoreFuture<'_, Paged<TemplateRecord>>;
    /// Tombstones every version of a template.
    fn delete_template(&self, organization: String, id: String) -> StoreFuture<'_, ()>;
    /// Which of `ids` are deleted templates of the organization.
    fn deleted_templates(
        &self,
        organization: String,
        ids: Vec<String>,
    ) -> StoreFuture<'_, Vec<String>>;

    /// Creates a job at version 1 under a new id; the record holds the submitted graph.
    fn create_job(
        &self,
        organization: String,
        id: String,
        fields: JobFields,
    ) -> StoreFuture<'_, JobRecord>;
    /// Appends version N+1; with `from_version`, fails with [`StoreError::Conflict`] unless it
    /// is N. The record holds the submitted graph.
    fn update_job(
        &self,
        organization: String,
        id: String,
        from_version: Option<u64>,
        fields: JobFields,
    ) -> StoreFuture<'_, JobRecord>;
    /// One version (`None`: the latest) of a live job, with the graph `form` asks for.
    fn job(
        &self,
        organization: String,
        id: String,
        version: Option<u64>,
        form: GraphForm,
    ) -> StoreFuture<'_, JobRecord>;
    /// A page of the jobs matching `filter`, oldest first (each job's versions in order), each
    /// with the graph `form` asks for.
    fn list_jobs(
        &self,
        organization: String,
        filter: JobFilter,
        form: GraphForm,
        page: PageRequest,
    ) -> StoreFuture<'_, Paged<JobRecord>>;
    /// Tombstones a job (every version).
    fn delete_job(&self, organization: String, id: String) -> StoreFuture<'_, ()>;

    /// The organization of live job `job_id` (`None`: no such job, or deleted), for a trigger.
    fn trigger_organization(&self, job_id: String) -> StoreFuture<'_, Option<String>>;
    /// Stores a trigger and prunes its organization's triggers to the newest `keep`.
    fn put_trigger(&self, trigger: TriggerRecord, keep: usize) -> StoreFuture<'_, ()>;

    /// Records that `organization` posted heartbeat `token` now, for a synchronous run another
    /// replica may hold; forgets renewals older than `keep_ms`.
    fn renew_sync_heartbeat(
        &self,
        organization: String,
        token: String,
        keep_ms: i64,
    ) -> StoreFuture<'_, ()>;
    /// When `organization` last posted heartbeat `token` through the database (ms since the
    /// epoch), if it did.
    fn sync_heartbeat(&self, organization: String, token: String) -> StoreFuture<'_, Option<i64>>;

    /// Creates a dataset at version 1 under a new id; [`StoreError::Duplicate`] when a live
    /// dataset of the organization has its name.
    fn create_dataset(
        &self,
        organization: String,
        id: String,
        fields: DatasetFields,
    ) -> StoreFuture<'_, DatasetRecord>;
    /// A live dataset by id.
    fn dataset(&self, organization: String, id: String) -> StoreFuture<'_, DatasetRecord>;
    /// A live dataset by name.
    fn dataset_by_name(&self, organization: String, name: String)
    -> StoreFuture<'_, DatasetRecord>;
    /// A page of the organization's live datasets, oldest first.
    fn list_datasets(
        &self,
        organization: String,
        page: PageRequest,
    ) -> StoreFuture<'_, Paged<DatasetRecord>>;
    /// Replaces a live dataset's fields and bumps its version; with `expected`, fails with
    /// [`StoreError::Conflict`] unless it is the current version. [`StoreError::Duplicate`]
    /// when another live dataset has the new name.
    fn update_dataset(
        &self,
        organization: String,
        id: String,
        expected: Option<u64>,
        fields: DatasetFields,
    ) -> StoreFuture<'_, DatasetRecord>;
    /// Tombstones a dataset: its name is free again; its manifest rows stay.
    fn delete_dataset(&self, organization: String, id: String) -> StoreFuture<'_, ()>;
    /// Commits the files a run wrote, in one transaction: `false` (and nothing written) when
    /// this run was already committed for the dataset.
    fn commit_lake_files(
        &self,
        organization: String,
        dataset_id: String,
        run_id: String,
        files: Vec<LakeFileRecord>,
    ) -> StoreFuture<'_, bool>;
    /// The committed files of a dataset (deleted ones too), of `table` (any when `None`),
    /// overlapping `[start_us, end_us)` (`max_time_us >= start_us AND min_time_us < end_us`,
    /// a side unbounded when `None`), ordered by partition start, smallest time, path.
    fn lake_files(
        &self,
        organization: String,
        dataset_id: String,
        table: Option<String>,
        start_us: Option<i64>,
        end_us: Option<i64>,
    ) -> StoreFuture<'_, Vec<LakeFileRecord>>;
    /// A page of the committed files of a dataset (every table, deleted datasets' too),
    /// ordered by partition start, smallest time, then path in byte order (a unique key: a
    /// path is unique in a dataset), on both stores whatever the database's locale. The
    /// planner's [`lake_files`](Self::lake_files) read stays unpaged. The page starts
    /// after `page.after`'s [`file`](PageKey::file) key (from the first file when there is
    /// none).
    fn lake_file_page(
        &self,
        organization: String,
        dataset_id: String,
        page: PageRequest,
    ) -> StoreFuture<'_, Paged<LakeFileRecord>>;

    /// The number of a dataset's last commit (0 before the first; commits are numbered in the
    /// order they commit, per dataset).
    fn last_lake_commit(&self, organization: String, dataset_id: String) -> StoreFuture<'_, i64>;

    /// The files of `table` committed to a dataset after commit `after` and up to `upto`,
    /// each with its commit's number, in commit then path order.
    fn lake_files_committed_after(
        &self,
        organization: String,
        dataset_id: String,
        table: String,
        after: i64,
        upto: i64,
    ) -> StoreFuture<'_, Vec<(i64, LakeFileRecord)>>;

    /// The files of `table` overlapping `[start_us, end_us)` that commit `as_of` or an earlier
    /// one committed, in partition, time, then path order (what a backfill reads).
    #[allow(clippy::too_many_arguments)]
    fn lake_files_as_of(
        &self,
        organization: String,
        dataset_id: String,
        table: String,
        start_us: i64,
        end_us: i64,
        as_of: i64,
    ) -> StoreFuture<'_, Vec<LakeFileRecord>>;

    /// Up to `limit` runs of asynchronous jobs that a replica may claim at `now_ms`: not
    /// ended, the lease past, every older version of the job ended, something to do.
    fn claimable_runs(&self, now_ms: i64, limit: i64) -> StoreFuture<'_, Vec<RunRecord>>;

    /// Takes a run for `owner` if its lease is still the one read (`false`: another replica
    /// was first).
    fn claim_run(
        &self,
        run: RunRecord,
        owner: String,
        lease_until_ms: i64,
    ) -> StoreFuture<'_, bool>;

    /// Renews `owner`'s lease on a run (with its counters, when given) and reads what it
    /// should do.
    fn renew_run(
        &self,
        job_id: String,
        version: u64,
        owner: String,
        lease_until_ms: i64,
        status: Option<String>,
    ) -> StoreFuture<'_, RunControl>;

    /// Writes a run's new state (and its version's) if `change.owner` owns it.
    fn change_run(&self, change: RunChange) -> StoreFuture<'_, bool>;

    /// Writes a checkpoint in one transaction (files, positions, snapshot) if its owner
    /// still owns the run: `false` and nothing written otherwise.
    fn checkpoint_run(&self, checkpoint: Checkpoint) -> StoreFuture<'_, bool>;

    /// The last checkpoint (positions, snapshot) of a version of the job before
    /// `before_version`.
    fn previous_checkpoint(
        &self,
        job_id: String,
        before_version: u64,
    ) -> StoreFuture<'_, Option<(String, Option<Vec<u8>>)>>;

    /// The checkpointed positions of every run not ended nor stopped.
    fn reading_positions(&self) -> StoreFuture<'_, Vec<String>>;

    /// Rolls a failed version back: a new version made from the one before it, if `failed` is
    /// still the latest (`None`: nothing done).
    fn rollback_job(
        &self,
        organization: String,
        job_id: String,
        failed: u64,
        processing: String,
    ) -> StoreFuture<'_, Option<u64>>;

    /// The run of the job's newest version that has one.
    fn latest_run(
        &self,
        organization: String,
        job_id: String,
    ) -> StoreFuture<'_, Option<RunRecord>>;
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

/// How a database URL is shown in messages and `Debug` output: without its password.
///
/// `scheme://user:password@rest` → `scheme://user:***@rest`; a `password=…` pair of the
/// key=value form → `password=***`.
pub(crate) fn redact_url(url: &str) -> String {
    if let Some((scheme, rest)) = url.split_once("://") {
        if let Some((userinfo, host)) = rest.rsplit_once('@')
            && let Some((user, _)) = userinfo.split_once(':')
        {
            return format!("{scheme}://{user}:***@{host}");
        }
        return url.to_owned();
    }
    url.split_whitespace()
        .map(|pair| {
            if pair.starts_with("password=") {
                "password=***"
            } else {
                pair
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
