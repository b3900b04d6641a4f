//! The schema of both databases: one numbered list of migrations. Migration N brings a
//! database from schema version N − 1 to N; each driver keeps its own record of the version
//! (SQLite `PRAGMA user_version`, PostgreSQL the table `jobgraph_migrations`) and runs what is
//! missing at start (`sqlite/migrate.rs`, `postgres/schema.rs`).
//!
//! Migrations 1–5 were released with a text per database and stay so ([`released`]). Every
//! later one is written once ([`Migration::Portable`]) in the portable subset: `TEXT`, `BIGINT`
//! (integer affinity on SQLite), `{blob}` (`BLOB` / `BYTEA`), `{bytes}` after a text column in
//! an index (byte order on PostgreSQL, as SQLite's default), partial indexes, no `WITHOUT
//! ROWID`. JSON is kept as `TEXT` on both (not `jsonb`: answers are the stored text byte for
//! byte).

use std::borrow::Cow;

use super::sql::{Dialect, render};

mod released;

/// One migration's statements.
pub(crate) enum Migration {
    /// A released migration with a text per database.
    Split {
        /// Its SQLite text.
        sqlite: &'static str,
        /// Its PostgreSQL text.
        postgres: &'static str,
    },
    /// A migration written once, rendered per database (see the module's portable subset).
    Portable(&'static str),
}

impl Migration {
    /// Its statements for `dialect`.
    pub(crate) fn text(&self, dialect: Dialect) -> Cow<'static, str> {
        match (self, dialect) {
            (Migration::Split { sqlite, .. }, Dialect::Sqlite) => Cow::Borrowed(sqlite),
            (Migration::Split { postgres, .. }, Dialect::Postgres) => Cow::Borrowed(postgres),
            (Migration::Portable(text), dialect) => Cow::Owned(render(text, dialect)),
        }
    }
}

/// Migration N (1-based) is `MIGRATIONS[N - 1]`. Never edit a released one: append.
pub(crate) const MIGRATIONS: &[Migration] = &[
    // 1: clients, tokens, templates, jobs, triggers.
    split(0),
    // 2: triggers belong to a job's organization (issue 27): the newest `keptPerOrganization`
    // are kept, older ones pruned on each insert.
    split(1),
    // 3: datasets and their lake manifest (issue 22, docs/lake.md §4). Times of rows are ms
    // since the epoch like the other tables; event times in the manifest are µs.
    split(2),
    // 4: the listing of a dataset's files a page at a time (`GET /v1/datasets/{id}/files`).
    split(3),
    // 5: heartbeats posted to one replica for a synchronous run another replica holds.
    split(4),
    // 6: asynchronous jobs run (issue 38, docs/plans/job-runner.md): a run per job version
    // that runs, with its owner's lease and its last checkpoint (the sources' positions and
    // the engine's snapshot); each dataset numbers its commits, so that a streaming source
    // reads them in the order they committed.
    Migration::Portable(
        "
    CREATE TABLE job_runs (
        job_id         TEXT NOT NULL,
        version        BIGINT NOT NULL,
        org            TEXT NOT NULL,
        processing     TEXT NOT NULL,
        state          TEXT NOT NULL,
        health         TEXT NOT NULL,
        message        TEXT NOT NULL,
        started_at     BIGINT,
        ended_at       BIGINT,
        owner          TEXT NOT NULL,
        lease_until    BIGINT NOT NULL,
        checkpoints    BIGINT NOT NULL,
        positions      TEXT NOT NULL,
        snapshot       {blob},
        status         TEXT NOT NULL,
        rollback       BIGINT NOT NULL,
        updated_at     BIGINT NOT NULL,
        PRIMARY KEY (job_id, version)
    );
    CREATE INDEX job_runs_live ON job_runs (lease_until) WHERE ended_at IS NULL;
    ALTER TABLE datasets ADD COLUMN commit_seq BIGINT NOT NULL DEFAULT 0;
    ALTER TABLE lake_commits ADD COLUMN seq BIGINT;
    CREATE INDEX lake_commits_by_seq ON lake_commits (organization, dataset_id, seq);
    CREATE INDEX lake_files_by_run ON lake_files (organization, dataset_id, run_id);
    ",
    ),
    // 7: a run is made of shards (issue 39, docs/intake.md "Partitions"): a version whose
    // source is a partitioned JetStream integration runs as `shards` rows, each claimed,
    // leased and checkpointed on its own. The key gains `shard`: the table is made again.
    Migration::Portable(
        "
    CREATE TABLE job_runs_sharded (
        job_id         TEXT NOT NULL,
        version        BIGINT NOT NULL,
        shard          BIGINT NOT NULL,
        shards         BIGINT NOT NULL,
        org            TEXT NOT NULL,
        processing     TEXT NOT NULL,
        state          TEXT NOT NULL,
        health         TEXT NOT NULL,
        message        TEXT NOT NULL,
        started_at     BIGINT,
        ended_at       BIGINT,
        owner          TEXT NOT NULL,
        lease_until    BIGINT NOT NULL,
        checkpoints    BIGINT NOT NULL,
        positions      TEXT NOT NULL,
        snapshot       {blob},
        status         TEXT NOT NULL,
        rollback       BIGINT NOT NULL,
        updated_at     BIGINT NOT NULL,
        PRIMARY KEY (job_id, version, shard)
    );
    INSERT INTO job_runs_sharded (job_id, version, shard, shards, org, processing, state, \
        health, message, started_at, ended_at, owner, lease_until, checkpoints, positions, \
        snapshot, status, rollback, updated_at) \
        SELECT job_id, version, 0, 1, org, processing, state, health, message, started_at, \
        ended_at, owner, lease_until, checkpoints, positions, snapshot, status, rollback, \
        updated_at FROM job_runs;
    DROP TABLE job_runs;
    ALTER TABLE job_runs_sharded RENAME TO job_runs;
    CREATE INDEX job_runs_live ON job_runs (lease_until) WHERE ended_at IS NULL;
    ",
    ),
    // 8: people log in (issue 40, docs/api.md "People, login and roles"): users of an
    // organization, the login form's authorization codes, refresh tokens by family; an access
    // token given to a person names its family (revoked with it).
    Migration::Portable(
        "
    CREATE TABLE users (
        org            TEXT NOT NULL,
        name           TEXT NOT NULL,
        secret_hash    TEXT NOT NULL,
        role           TEXT NOT NULL,
        created_at     BIGINT NOT NULL,
        PRIMARY KEY (org, name)
    );
    CREATE TABLE oauth_codes (
        code_hash      {blob} PRIMARY KEY,
        client_id      TEXT NOT NULL,
        redirect_uri   TEXT NOT NULL,
        challenge      TEXT NOT NULL,
        org            TEXT NOT NULL,
        user_name      TEXT NOT NULL,
        family         TEXT NOT NULL,
        expires_at     BIGINT NOT NULL,
        used           BIGINT NOT NULL
    );
    CREATE TABLE refresh_tokens (
        token_hash     {blob} PRIMARY KEY,
        family         TEXT NOT NULL,
        client_id      TEXT NOT NULL,
        org            TEXT NOT NULL,
        user_name      TEXT NOT NULL,
        expires_at     BIGINT NOT NULL,
        used           BIGINT NOT NULL
    );
    CREATE INDEX refresh_tokens_by_family ON refresh_tokens (family);
    ALTER TABLE tokens ADD COLUMN family TEXT;
    CREATE INDEX tokens_by_family ON tokens (family) WHERE family IS NOT NULL;
    ",
    ),
    // 9: roles (issue 40): a client's (a service account's) organization role, `Admin` for the
    // clients made before roles existed; team roles of clients and users (a JSON object, team
    // id → `Leader` or `Member`); the teams a job, a template or a dataset belongs to (a JSON
    // array, empty: the organization's).
    Migration::Portable(
        "
    ALTER TABLE clients ADD COLUMN role TEXT NOT NULL DEFAULT 'Admin';
    ALTER TABLE clients ADD COLUMN teams TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE users ADD COLUMN teams TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE jobs ADD COLUMN team_ids TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE templates ADD COLUMN team_ids TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE datasets ADD COLUMN team_ids TEXT NOT NULL DEFAULT '[]';
    ",
    ),
];

const fn split(index: usize) -> Migration {
    Migration::Split {
        sqlite: released::SQLITE[index],
        postgres: released::POSTGRES[index],
    }
}

/// The schema version this build writes.
pub const SCHEMA_VERSION: usize = MIGRATIONS.len();

/// Why the schema could not be brought up to date.
#[derive(Debug, thiserror::Error)]
pub enum MigrationError {
    /// The database was written by a newer build.
    #[error(
        "the database's schema is at version {found}, newer than this build's {SCHEMA_VERSION}: run a newer jobgraph"
    )]
    TooNew {
        /// Its version.
        found: usize,
    },
    /// The database failed.
    #[error("{0}")]
    Database(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn portable_ddl_renders_per_dialect() {
        let text = "CREATE TABLE t (h {blob} PRIMARY KEY, p TEXT); CREATE INDEX i ON t (p{bytes});";
        let migration = Migration::Portable(text);
        assert_eq!(
            migration.text(Dialect::Sqlite),
            "CREATE TABLE t (h BLOB PRIMARY KEY, p TEXT); CREATE INDEX i ON t (p);"
        );
        assert_eq!(
            migration.text(Dialect::Postgres),
            r#"CREATE TABLE t (h BYTEA PRIMARY KEY, p TEXT); CREATE INDEX i ON t (p COLLATE "C");"#
        );
    }
}
