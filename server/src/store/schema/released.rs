//! Migrations 1–5 as released, one text per database (SQLite's types and `WITHOUT ROWID`,
//! PostgreSQL's `BIGINT`, `BYTEA` and `COLLATE "C"`). Frozen: databases made by earlier
//! releases hold exactly these; never edit one. New migrations are written once
//! ([`Migration::Portable`](super::Migration::Portable)).

/// SQLite's migrations 1–5 (`MIGRATIONS[N - 1]` is migration N).
pub(super) const SQLITE: [&str; 5] = [
    // 1: clients, tokens, templates, jobs, triggers.
    r"
    CREATE TABLE clients (
        client_id   TEXT PRIMARY KEY,
        org         TEXT NOT NULL,
        secret_hash TEXT NOT NULL,
        created_at  INTEGER NOT NULL
    );
    CREATE TABLE tokens (
        token_hash BLOB PRIMARY KEY,
        client_id  TEXT NOT NULL,
        org        TEXT NOT NULL,
        expires_at INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX tokens_by_expiry ON tokens (expires_at);
    CREATE TABLE templates (
        id             TEXT PRIMARY KEY,
        org            TEXT NOT NULL,
        latest_version INTEGER NOT NULL,
        created_at     INTEGER NOT NULL,
        deleted_at     INTEGER
    );
    CREATE INDEX templates_by_org ON templates (org, created_at);
    CREATE TABLE template_versions (
        template_id TEXT NOT NULL REFERENCES templates (id),
        version     INTEGER NOT NULL,
        fields      TEXT NOT NULL,
        source_hash TEXT NOT NULL,
        edited_by   TEXT NOT NULL,
        created_at  INTEGER NOT NULL,
        PRIMARY KEY (template_id, version)
    ) WITHOUT ROWID;
    CREATE TABLE jobs (
        id             TEXT PRIMARY KEY,
        org            TEXT NOT NULL,
        latest_version INTEGER NOT NULL,
        created_at     INTEGER NOT NULL,
        deleted_at     INTEGER
    );
    CREATE INDEX jobs_by_org ON jobs (org, created_at);
    CREATE TABLE job_versions (
        job_id        TEXT NOT NULL REFERENCES jobs (id),
        version       INTEGER NOT NULL,
        name          TEXT NOT NULL,
        execution     TEXT NOT NULL,
        processing    TEXT NOT NULL,
        state         TEXT NOT NULL,
        desired_state TEXT NOT NULL,
        tags          TEXT NOT NULL,
        definition    TEXT NOT NULL,
        resolved      TEXT NOT NULL,
        templates     TEXT NOT NULL,
        edited_by     TEXT NOT NULL,
        created_at    INTEGER NOT NULL,
        PRIMARY KEY (job_id, version)
    ) WITHOUT ROWID;
    CREATE TABLE triggers (
        id          TEXT PRIMARY KEY,
        payload     TEXT NOT NULL,
        received_at INTEGER NOT NULL
    );
    ",
    // 2: triggers belong to a job's organization (issue 27): the newest `keptPerOrganization`
    // are kept, older ones pruned on each insert.
    r"
    ALTER TABLE triggers ADD COLUMN org TEXT NOT NULL DEFAULT '';
    ALTER TABLE triggers ADD COLUMN job_id TEXT NOT NULL DEFAULT '';
    CREATE INDEX triggers_by_org ON triggers (org, received_at, id);
    ",
    // 3: datasets and their lake manifest (issue 22, docs/lake.md §4). Times of rows are ms
    // since the epoch like the other tables; event times in the manifest are µs.
    r"
    CREATE TABLE datasets (
        organization   TEXT NOT NULL,
        id             TEXT NOT NULL,
        name           TEXT NOT NULL,
        description    TEXT NOT NULL,
        partitioning   TEXT NOT NULL,
        retention_days INTEGER,
        promoted_tags  TEXT NOT NULL,
        version        INTEGER NOT NULL,
        created_at     INTEGER NOT NULL,
        updated_at     INTEGER NOT NULL,
        deleted_at     INTEGER,
        PRIMARY KEY (organization, id)
    );
    CREATE UNIQUE INDEX datasets_live_name ON datasets (organization, name) WHERE deleted_at IS NULL;
    CREATE INDEX datasets_by_org ON datasets (organization, created_at, id);
    CREATE TABLE lake_commits (
        organization TEXT NOT NULL,
        dataset_id   TEXT NOT NULL,
        run_id       TEXT NOT NULL,
        table_name   TEXT NOT NULL,
        files        INTEGER NOT NULL,
        rows         INTEGER NOT NULL,
        bytes        INTEGER NOT NULL,
        committed_at INTEGER NOT NULL,
        PRIMARY KEY (organization, dataset_id, run_id)
    );
    CREATE TABLE lake_files (
        organization       TEXT NOT NULL,
        dataset_id         TEXT NOT NULL,
        table_name         TEXT NOT NULL,
        path               TEXT NOT NULL,
        partition_start_us INTEGER NOT NULL,
        min_time_us        INTEGER NOT NULL,
        max_time_us        INTEGER NOT NULL,
        rows               INTEGER NOT NULL,
        bytes              INTEGER NOT NULL,
        row_groups         INTEGER NOT NULL,
        run_id             TEXT NOT NULL,
        stats              TEXT NOT NULL,
        PRIMARY KEY (organization, dataset_id, path)
    );
    CREATE INDEX lake_files_time ON lake_files (organization, dataset_id, table_name, max_time_us, min_time_us);
    ",
    // 4: the listing of a dataset's files a page at a time (`GET /v1/datasets/{id}/files`):
    // each page an index range from the cursor's key on, not a sort of the whole manifest.
    r"
    CREATE INDEX lake_files_listing ON lake_files (organization, dataset_id, partition_start_us, min_time_us, path);
    ",
    // 5: heartbeats posted to one replica for a synchronous run another replica holds
    // (`POST /v1/jobs/sync/heartbeat`): the holder reads them before it cancels the run.
    r"
    CREATE TABLE sync_heartbeats (
        token        TEXT PRIMARY KEY,
        organization TEXT NOT NULL,
        renewed_at   INTEGER NOT NULL
    );
    CREATE INDEX sync_heartbeats_age ON sync_heartbeats (renewed_at);
    ",
];

/// PostgreSQL's migrations 1–5.
pub(super) const POSTGRES: [&str; 5] = [
    // 1: clients, tokens, templates, jobs, triggers (the SQLite schema, in PostgreSQL types).
    r"
    CREATE TABLE clients (
        client_id   TEXT PRIMARY KEY,
        org         TEXT NOT NULL,
        secret_hash TEXT NOT NULL,
        created_at  BIGINT NOT NULL
    );
    CREATE TABLE tokens (
        token_hash BYTEA PRIMARY KEY,
        client_id  TEXT NOT NULL,
        org        TEXT NOT NULL,
        expires_at BIGINT NOT NULL
    );
    CREATE INDEX tokens_by_expiry ON tokens (expires_at);
    CREATE TABLE templates (
        id             TEXT PRIMARY KEY,
        org            TEXT NOT NULL,
        latest_version BIGINT NOT NULL,
        created_at     BIGINT NOT NULL,
        deleted_at     BIGINT
    );
    CREATE INDEX templates_by_org ON templates (org, created_at);
    CREATE TABLE template_versions (
        template_id TEXT NOT NULL REFERENCES templates (id),
        version     BIGINT NOT NULL,
        fields      TEXT NOT NULL,
        source_hash TEXT NOT NULL,
        edited_by   TEXT NOT NULL,
        created_at  BIGINT NOT NULL,
        PRIMARY KEY (template_id, version)
    );
    CREATE TABLE jobs (
        id             TEXT PRIMARY KEY,
        org            TEXT NOT NULL,
        latest_version BIGINT NOT NULL,
        created_at     BIGINT NOT NULL,
        deleted_at     BIGINT
    );
    CREATE INDEX jobs_by_org ON jobs (org, created_at);
    CREATE TABLE job_versions (
        job_id        TEXT NOT NULL REFERENCES jobs (id),
        version       BIGINT NOT NULL,
        name          TEXT NOT NULL,
        execution     TEXT NOT NULL,
        processing    TEXT NOT NULL,
        state         TEXT NOT NULL,
        desired_state TEXT NOT NULL,
        tags          TEXT NOT NULL,
        definition    TEXT NOT NULL,
        resolved      TEXT NOT NULL,
        templates     TEXT NOT NULL,
        edited_by     TEXT NOT NULL,
        created_at    BIGINT NOT NULL,
        PRIMARY KEY (job_id, version)
    );
    CREATE TABLE triggers (
        id          TEXT PRIMARY KEY,
        payload     TEXT NOT NULL,
        received_at BIGINT NOT NULL
    );
    ",
    // 2: triggers belong to a job's organization (issue 27): the newest `keptPerOrganization`
    // are kept, older ones pruned on each insert.
    r"
    ALTER TABLE triggers ADD COLUMN org TEXT NOT NULL DEFAULT '';
    ALTER TABLE triggers ADD COLUMN job_id TEXT NOT NULL DEFAULT '';
    CREATE INDEX triggers_by_org ON triggers (org, received_at, id);
    ",
    // 3: datasets and their lake manifest (issue 22, docs/lake.md §4). Times of rows are ms
    // since the epoch like the other tables; event times in the manifest are µs.
    r"
    CREATE TABLE datasets (
        organization   TEXT NOT NULL,
        id             TEXT NOT NULL,
        name           TEXT NOT NULL,
        description    TEXT NOT NULL,
        partitioning   TEXT NOT NULL,
        retention_days BIGINT,
        promoted_tags  TEXT NOT NULL,
        version        BIGINT NOT NULL,
        created_at     BIGINT NOT NULL,
        updated_at     BIGINT NOT NULL,
        deleted_at     BIGINT,
        PRIMARY KEY (organization, id)
    );
    CREATE UNIQUE INDEX datasets_live_name ON datasets (organization, name) WHERE deleted_at IS NULL;
    CREATE INDEX datasets_by_org ON datasets (organization, created_at, id);
    CREATE TABLE lake_commits (
        organization TEXT NOT NULL,
        dataset_id   TEXT NOT NULL,
        run_id       TEXT NOT NULL,
        table_name   TEXT NOT NULL,
        files        BIGINT NOT NULL,
        rows         BIGINT NOT NULL,
        bytes        BIGINT NOT NULL,
        committed_at BIGINT NOT NULL,
        PRIMARY KEY (organization, dataset_id, run_id)
    );
    CREATE TABLE lake_files (
        organization       TEXT NOT NULL,
        dataset_id         TEXT NOT NULL,
        table_name         TEXT NOT NULL,
        path               TEXT NOT NULL,
        partition_start_us BIGINT NOT NULL,
        min_time_us        BIGINT NOT NULL,
        max_time_us        BIGINT NOT NULL,
        rows               BIGINT NOT NULL,
        bytes              BIGINT NOT NULL,
        row_groups         BIGINT NOT NULL,
        run_id             TEXT NOT NULL,
        stats              TEXT NOT NULL,
        PRIMARY KEY (organization, dataset_id, path)
    );
    CREATE INDEX lake_files_time ON lake_files (organization, dataset_id, table_name, max_time_us, min_time_us);
    ",
    // 4: the listing of a dataset's files a page at a time (`GET /v1/datasets/{id}/files`):
    // each page an index range from the cursor's key on, not a sort of the whole manifest.
    // Paths in byte order (`COLLATE "C"`), as the listing compares them and as SQLite does.
    r#"
    CREATE INDEX lake_files_listing ON lake_files (organization, dataset_id, partition_start_us, min_time_us, path COLLATE "C");
    "#,
    // 5: heartbeats posted to one replica for a synchronous run another replica holds.
    r"
    CREATE TABLE sync_heartbeats (
        token        TEXT PRIMARY KEY,
        organization TEXT NOT NULL,
        renewed_at   BIGINT NOT NULL
    );
    CREATE INDEX sync_heartbeats_age ON sync_heartbeats (renewed_at);
    ",
];
