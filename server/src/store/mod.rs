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
mod people;
#[cfg(feature = "postgres")]
mod postgres;
mod records;
mod runs;
mod schema;
mod sql;
mod sqlite;

use std::future::Future;
use std::pin::Pin;

pub use datasets::{DatasetFields, DatasetRecord, FileKey, LakeFileRecord};
pub(crate) use paging::PageFill;
pub use paging::{PageKey, PageRequest, Paged};
pub use people::{CodeRecord, RefreshRecord, Taken, UserRecord};
#[cfg(feature = "postgres")]
pub use postgres::{PostgresOptions, PostgresStore};
pub use records::{
    ClientRecord, Grants, GraphForm, JobFields, JobFilter, JobMeta, JobRecord, NewTemplateVersion,
    RunInfo, TemplateFields, TemplateRecord, TokenRecord, TriggerRecord,
};
pub use runs::{Checkpoint, RunChange, RunControl, RunRecord, ShardCheckpoint, SinkCommit};
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
    /// Adds a user of an organization, or replaces their password hash and role.
    fn put_user(&self, user: UserRecord) -> StoreFuture<'_, ()>;

    /// A user of an organization.
    fn user(&self, organization: String, name: String) -> StoreFuture<'_, Option<UserRecord>>;

    /// Stores an authorization code of the login form.
    fn put_code(&self, code: CodeRecord) -> StoreFuture<'_, ()>;

    /// Takes an authorization code: once, before it expires.
    fn take_code(&self, code_hash: [u8; 32]) -> StoreFuture<'_, Taken<CodeRecord>>;

    /// Stores a refresh token.
    fn put_refresh(&self, token: RefreshRecord) -> StoreFuture<'_, ()>;

    /// Takes a refresh token: once, before it expires.
    fn take_refresh(&self, token_hash: [u8; 32]) -> StoreFuture<'_, Taken<RefreshRecord>>;

    /// Revokes a login's family of tokens; answers its access tokens' hashes.
    fn revoke_family(&self, family: String) -> StoreFuture<'_, Vec<[u8; 32]>>;

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
        shard: u32,
        owner: String,
        lease_until_ms: i64,
        status: Option<String>,
    ) -> StoreFuture<'_, RunControl>;

    /// Writes a run's new state (and its version's) if `change.owner` owns it.
    fn change_run(&self, change: RunChange) -> StoreFuture<'_, bool>;

    /// Writes a checkpoint in one transaction (files, positions, snapshot) if its owner
    /// still owns the run: `false` and nothing written otherwise.
    fn checkpoint_run(&self, checkpoint: Checkpoint) -> StoreFuture<'_, bool>;

    /// The last checkpoint of each shard of the newest version of the job before
    /// `before_version` that checkpointed (empty: none did).
    fn previous_checkpoint(
        &self,
        job_id: String,
        before_version: u64,
    ) -> StoreFuture<'_, Vec<ShardCheckpoint>>;

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
