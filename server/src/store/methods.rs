//! The [`Store`] methods, each bound once to its operation in `ops/` and run on both databases.
//!
//! A line `mode fn name(args) -> T = ops::path;` makes the method on [`SqliteStore`] and on
//! [`PostgresStore`]. The mode says where it runs:
//! - `read_point`: a read of a few rows by key. SQLite: right on the async worker when a reader
//!   connection is free, else on the blocking pool. PostgreSQL: a pooled connection.
//! - `read`: a listing or a scan. SQLite: a reader on the blocking pool. PostgreSQL: a pooled
//!   connection.
//! - `write`: several statements in one transaction. SQLite: the writer's `BEGIN IMMEDIATE`.
//!   PostgreSQL: `BEGIN` … `COMMIT` (rows it reads to decide are locked with `{for_update}`).
//! - `auto`: a single statement. SQLite: the writer's transaction; PostgreSQL: autocommit, no
//!   `BEGIN` / `COMMIT` round trips.
//!
//! Adding a table: a migration (`migrations.rs`, `postgres/schema.rs`), its statements and
//! row mapping in a module of `ops/`, and one line here per method of [`Store`].

#[cfg(feature = "postgres")]
use super::PostgresStore;
#[cfg(feature = "postgres")]
use super::sql::postgres::PgDb;
use super::sql::run_now;
use super::sql::sqlite::SqliteDb;
use super::{Checkpoint, RunChange, RunControl, RunRecord, ShardCheckpoint};
use super::{
    ClientRecord, DatasetFields, DatasetRecord, GraphForm, JobFields, JobFilter, JobRecord,
    LakeFileRecord, NewTemplateVersion, PageRequest, Paged, SqliteStore, Store, StoreFuture,
    TemplateRecord, TokenRecord, TriggerRecord, ops,
};
use super::{CodeRecord, RefreshRecord, Taken, UserRecord};

/// One SQLite method: the operation on the connection its mode picks.
macro_rules! sqlite_call {
    (read_point, $store:expr, $call:expr) => {
        $store.read_point($call)
    };
    (read, $store:expr, $call:expr) => {
        $store.read($call)
    };
    (write, $store:expr, $call:expr) => {
        $store.write($call)
    };
    (auto, $store:expr, $call:expr) => {
        $store.write($call)
    };
}

/// One PostgreSQL method: the operation in a transaction (`write`) or on a pooled connection.
#[cfg(feature = "postgres")]
macro_rules! postgres_call {
    (write, $store:expr, |$db:ident| $body:expr) => {
        Box::pin(async move {
            let mut client = $store.pool.get().await?;
            let tx = client.transaction().await?;
            let $db = &PgDb(&tx);
            let out = $body.await?;
            tx.commit().await?;
            Ok(out)
        })
    };
    ($mode:ident, $store:expr, |$db:ident| $body:expr) => {
        Box::pin(async move {
            let client = $store.pool.get().await?;
            let $db = &PgDb(&client);
            $body.await
        })
    };
}

macro_rules! store_methods {
    ($( $mode:ident fn $name:ident($($arg:ident: $ty:ty),*) -> $out:ty = $op:path; )*) => {
        impl Store for SqliteStore {
            fn kind(&self) -> &'static str {
                "sqlite"
            }
            fn sole_writer(&self) -> bool {
                self.exclusive()
            }
            $(
                fn $name(&self, $($arg: $ty),*) -> StoreFuture<'_, $out> {
                    sqlite_call!($mode, self, move |db| run_now($op(&SqliteDb(db) $(, $arg)*)))
                }
            )*
        }

        #[cfg(feature = "postgres")]
        impl Store for PostgresStore {
            fn kind(&self) -> &'static str {
                "postgres"
            }
            $(
                fn $name(&self, $($arg: $ty),*) -> StoreFuture<'_, $out> {
                    postgres_call!($mode, self, |db| $op(db $(, $arg)*))
                }
            )*
        }
    };
}

store_methods! {
    read_point fn ping() -> () = ops::ping;

    auto fn put_client(client: ClientRecord) -> () = ops::clients::put;
    read_point fn client(client_id: String) -> Option<ClientRecord> = ops::clients::get;
    read fn client_count() -> u64 = ops::clients::count;
    write fn put_token(token: TokenRecord) -> () = ops::clients::put_token;
    read_point fn token(token_hash: [u8; 32]) -> Option<TokenRecord> = ops::clients::token;
    read fn client_ids() -> Vec<String> = ops::clients::ids;
    write fn delete_client(client_id: String) -> u64 = ops::clients::delete;
    auto fn delete_client_tokens(client_id: String) -> u64 = ops::clients::delete_tokens;
    auto fn delete_token(token_hash: [u8; 32]) -> bool = ops::clients::delete_token;
    auto fn put_user(user: UserRecord) -> () = ops::people::put_user;
    read_point fn user(organization: String, name: String) -> Option<UserRecord>
        = ops::people::user;
    auto fn put_code(code: CodeRecord) -> () = ops::people::put_code;
    write fn take_code(code_hash: [u8; 32]) -> Taken<CodeRecord> = ops::people::take_code;
    auto fn put_refresh(token: RefreshRecord) -> () = ops::people::put_refresh;
    write fn take_refresh(token_hash: [u8; 32]) -> Taken<RefreshRecord>
        = ops::people::take_refresh;
    write fn revoke_family(family: String) -> Vec<[u8; 32]> = ops::people::revoke_family;

    write fn create_template(id: String, new: NewTemplateVersion) -> TemplateRecord
        = ops::templates::create;
    write fn append_template(id: String, expected: Option<u64>, new: NewTemplateVersion)
        -> TemplateRecord = ops::templates::append;
    read_point fn template(organization: String, id: String, version: Option<u64>)
        -> TemplateRecord = ops::templates::get;
    read_point fn template_versions(organization: String, id: String, page: PageRequest)
        -> Paged<TemplateRecord> = ops::templates::versions;
    read fn list_templates(organization: String, page: PageRequest) -> Paged<TemplateRecord>
        = ops::templates::list;
    auto fn delete_template(organization: String, id: String) -> () = ops::templates::delete;
    read fn deleted_templates(organization: String, ids: Vec<String>) -> Vec<String>
        = ops::templates::deleted;

    write fn create_job(organization: String, id: String, fields: JobFields) -> JobRecord
        = ops::jobs::create;
    write fn update_job(organization: String, id: String, from_version: Option<u64>,
        fields: JobFields) -> JobRecord = ops::jobs::update;
    read_point fn job(organization: String, id: String, version: Option<u64>, form: GraphForm)
        -> JobRecord = ops::jobs::get;
    read fn list_jobs(organization: String, filter: JobFilter, form: GraphForm,
        page: PageRequest) -> Paged<JobRecord> = ops::jobs::list;
    auto fn delete_job(organization: String, id: String) -> () = ops::jobs::delete;

    read_point fn trigger_organization(job_id: String) -> Option<String>
        = ops::jobs::organization;
    write fn put_trigger(trigger: TriggerRecord, keep: usize) -> () = ops::events::put_trigger;
    write fn renew_sync_heartbeat(organization: String, token: String, keep_ms: i64) -> ()
        = ops::events::renew_heartbeat;
    read_point fn sync_heartbeat(organization: String, token: String) -> Option<i64>
        = ops::events::heartbeat;

    write fn create_dataset(organization: String, id: String, fields: DatasetFields)
        -> DatasetRecord = ops::datasets::create;
    read_point fn dataset(organization: String, id: String) -> DatasetRecord
        = ops::datasets::get;
    read_point fn dataset_by_name(organization: String, name: String) -> DatasetRecord
        = ops::datasets::by_name;
    read fn list_datasets(organization: String, page: PageRequest) -> Paged<DatasetRecord>
        = ops::datasets::list;
    write fn update_dataset(organization: String, id: String, expected: Option<u64>,
        fields: DatasetFields) -> DatasetRecord = ops::datasets::update;
    auto fn delete_dataset(organization: String, id: String) -> () = ops::datasets::delete;
    write fn commit_lake_files(organization: String, dataset_id: String, run_id: String,
        files: Vec<LakeFileRecord>) -> bool = ops::datasets::commit;
    read fn lake_files(organization: String, dataset_id: String, table: Option<String>,
        start_us: Option<i64>, end_us: Option<i64>) -> Vec<LakeFileRecord> = ops::datasets::files;
    read fn lake_file_page(organization: String, dataset_id: String, page: PageRequest)
        -> Paged<LakeFileRecord> = ops::datasets::file_page;
    read_point fn last_lake_commit(organization: String, dataset_id: String) -> i64
        = ops::datasets::last_commit;
    read fn lake_files_committed_after(organization: String, dataset_id: String, table: String,
        after: i64, upto: i64) -> Vec<(i64, LakeFileRecord)> = ops::datasets::committed_after;
    read fn lake_files_as_of(organization: String, dataset_id: String, table: String,
        start_us: i64, end_us: i64, as_of: i64) -> Vec<LakeFileRecord> = ops::datasets::files_as_of;

    read fn claimable_runs(now_ms: i64, limit: i64) -> Vec<RunRecord> = ops::runs::claimable;
    auto fn claim_run(run: RunRecord, owner: String, lease_until_ms: i64) -> bool
        = ops::runs::claim;
    write fn renew_run(job_id: String, version: u64, shard: u32, owner: String,
        lease_until_ms: i64, status: Option<String>) -> RunControl = ops::runs::renew;
    write fn change_run(change: RunChange) -> bool = ops::runs::change;
    write fn checkpoint_run(checkpoint: Checkpoint) -> bool = ops::runs::checkpoint;
    read_point fn previous_checkpoint(job_id: String, before_version: u64)
        -> Vec<ShardCheckpoint> = ops::runs::previous_checkpoint;
    read fn reading_positions() -> Vec<String> = ops::runs::reading_positions;
    read_point fn latest_run(organization: String, job_id: String) -> Option<RunRecord>
        = ops::runs::latest;
    write fn rollback_job(organization: String, job_id: String, failed: u64, processing: String)
        -> Option<u64> = ops::runs::rollback;
}
