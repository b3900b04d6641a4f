//! Jobs and their versions (`jobs`, `job_versions`).

use serde_json::value::RawValue;

use super::{json, sql_version, to_text, version};
use crate::ids::now_ms;
use crate::store::sql::{Db, RowRef, Sql, SqlBuf, changed};
use crate::store::{
    GraphForm, JobFields, JobFilter, JobMeta, JobRecord, PageRequest, Paged, RunInfo, StoreError,
};

/// The select of live job versions with one graph (`j`: jobs, `v`: job_versions), in [`job`]'s
/// column order; filters follow with `AND`.
macro_rules! job_select {
    ($graph:literal) => {
        concat!(
            "SELECT j.id, j.org, v.version, j.latest_version, j.created_at, v.created_at, \
             v.name, v.execution, v.processing, v.state, v.desired_state, v.tags, v.templates, \
             v.edited_by, ",
            $graph,
            ", r.started_at, r.ended_at, r.health, \
             (SELECT MAX(s.message) FROM job_runs s \
              WHERE s.job_id = v.job_id AND s.version = v.version), \
             (SELECT {shard_statuses} FROM job_runs s \
              WHERE s.job_id = v.job_id AND s.version = v.version), j.team_ids \
             FROM jobs j JOIN job_versions v ON v.job_id = j.id \
             LEFT JOIN job_runs r ON r.job_id = v.job_id AND r.version = v.version AND r.shard = 0 \
             WHERE j.deleted_at IS NULL"
        )
    };
}

/// [`job_select!`] with the graph `form` asks for.
fn select(form: GraphForm) -> &'static str {
    match form {
        GraphForm::Submitted => job_select!("v.definition"),
        GraphForm::Resolved => job_select!("v.resolved"),
    }
}

static CREATE: Sql = Sql::new(
    "INSERT INTO jobs (id, org, latest_version, created_at, team_ids) VALUES (?1, ?2, 1, ?3, ?4)",
);
static INSERT_VERSION: Sql = Sql::new(
    "INSERT INTO job_versions (job_id, version, name, execution, processing, state, \
     desired_state, tags, definition, resolved, templates, edited_by, created_at) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
);
/// Locks the job's row on PostgreSQL (see the templates' lock).
static LOCK_LATEST: Sql = Sql::new(
    "SELECT latest_version, created_at FROM jobs \
     WHERE id = ?1 AND org = ?2 AND deleted_at IS NULL{for_update}",
);
static SET_LATEST: Sql =
    Sql::new("UPDATE jobs SET latest_version = ?1, team_ids = ?3 WHERE id = ?2");
/// The filter of one version by id (`?3`: the version, NULL for the latest).
macro_rules! by_id {
    () => {
        " AND j.id = ?1 AND j.org = ?2 AND v.version = COALESCE(CAST(?3 AS BIGINT), j.latest_version)"
    };
}
static BY_ID_SUBMITTED: Sql = Sql::new(concat!(job_select!("v.definition"), by_id!()));
static BY_ID_RESOLVED: Sql = Sql::new(concat!(job_select!("v.resolved"), by_id!()));
static DELETE: Sql =
    Sql::new("UPDATE jobs SET deleted_at = ?1 WHERE id = ?2 AND org = ?3 AND deleted_at IS NULL");
static ORGANIZATION: Sql = Sql::new("SELECT org FROM jobs WHERE id = ?1 AND deleted_at IS NULL");

/// A run's `pipelineStatus` counters from its shards' (joined by U+001E): one shard's as
/// stored, several merged.
fn run_status(text: String) -> Result<Box<RawValue>, StoreError> {
    let bad = |e: serde_json::Error| StoreError::Backend(format!("stored run status: {e}"));
    if !text.contains('\u{1e}') {
        return RawValue::from_string(text).map_err(bad);
    }
    let shards = text
        .split('\u{1e}')
        .map(serde_json::from_str)
        .collect::<Result<Vec<serde_json::Value>, _>>()
        .map_err(bad)?;
    let merged = crate::runs::status::merge_shards(&shards);
    RawValue::from_string(merged.to_string()).map_err(bad)
}

/// A job version with one graph, kept as JSON text, and its stored size (graph and name).
fn job(row: &RowRef<'_>) -> Result<(JobRecord, usize), StoreError> {
    let (v, latest): (i64, i64) = (row.get(2)?, row.get(3)?);
    let graph = RawValue::from_string(row.get(14)?)
        .map_err(|e| StoreError::Backend(format!("stored job graph: {e}")))?;
    let record = JobRecord {
        id: row.get(0)?,
        organization: row.get(1)?,
        version: version(v),
        latest: v == latest,
        created_at_ms: row.get(4)?,
        updated_at_ms: row.get(5)?,
        meta: JobMeta {
            name: row.get(6)?,
            execution: row.get(7)?,
            processing: row.get(8)?,
            state: row.get(9)?,
            desired_state: row.get(10)?,
            tags: json(&row.get::<String>(11)?, "job tags")?,
            templates: json(&row.get::<String>(12)?, "job templates")?,
            edited_by: row.get(13)?,
            team_ids: json(&row.get::<String>(20)?, "job teams")?,
        },
        graph,
        run: match row.get::<Option<String>>(17)? {
            None => None,
            Some(health) => Some(RunInfo {
                started_at_ms: row.get(15)?,
                ended_at_ms: row.get(16)?,
                health,
                message: row.get(18)?,
                status: run_status(row.get(19)?)?,
            }),
        },
    };
    let size = record.graph.get().len() + record.meta.name.len();
    Ok((record, size))
}

async fn insert_version(
    db: &impl Db,
    id: &str,
    version: u64,
    fields: &JobFields,
    now: i64,
) -> Result<(), StoreError> {
    let meta = &fields.meta;
    let texts = [
        to_text(&meta.tags)?,
        to_text(&fields.definition)?,
        to_text(&fields.resolved)?,
        to_text(&meta.templates)?,
    ];
    let args = [
        id.into(),
        sql_version(version).into(),
        (&meta.name).into(),
        (&meta.execution).into(),
        (&meta.processing).into(),
        (&meta.state).into(),
        (&meta.desired_state).into(),
        (&texts[0]).into(),
        (&texts[1]).into(),
        (&texts[2]).into(),
        (&texts[3]).into(),
        (&meta.edited_by).into(),
        now.into(),
    ];
    db.execute(INSERT_VERSION.text(db.dialect()), &args).await?;
    if meta.execution == "ASYNCHRONOUS" {
        let (processing, rollback) = (&meta.processing, fields.rollback);
        super::runs::insert(db, id, version, processing, rollback, fields.shards).await?;
    }
    Ok(())
}

/// Creates a job at version 1; the record holds the submitted graph.
pub(crate) async fn create(
    db: &impl Db,
    organization: String,
    id: String,
    fields: JobFields,
) -> Result<JobRecord, StoreError> {
    let now = now_ms();
    let teams = to_text(&fields.meta.team_ids)?;
    let args = [
        (&id).into(),
        (&organization).into(),
        now.into(),
        (&teams).into(),
    ];
    db.execute(CREATE.text(db.dialect()), &args).await?;
    insert_version(db, &id, 1, &fields, now).await?;
    JobRecord::written(id, organization, 1, (now, now), fields)
}

/// Appends version N+1 under the job's lock; with `from_version`, only if the latest is N.
pub(crate) async fn update(
    db: &impl Db,
    organization: String,
    id: String,
    from_version: Option<u64>,
    fields: JobFields,
) -> Result<JobRecord, StoreError> {
    let d = db.dialect();
    let args = [(&id).into(), (&organization).into()];
    let (latest, created_at) = db
        .row(LOCK_LATEST.text(d), &args, |r| {
            Ok((r.get::<i64>(0)?, r.get::<i64>(1)?))
        })
        .await?
        .ok_or(StoreError::NotFound)?;
    let current = version(latest);
    if from_version.is_some_and(|v| v != current) {
        return Err(StoreError::Conflict { current });
    }
    let now = now_ms();
    insert_version(db, &id, current + 1, &fields, now).await?;
    let teams = to_text(&fields.meta.team_ids)?;
    let args = [
        sql_version(current + 1).into(),
        (&id).into(),
        (&teams).into(),
    ];
    db.execute(SET_LATEST.text(d), &args).await?;
    JobRecord::written(id, organization, current + 1, (created_at, now), fields)
}

/// One version (`None`: the latest) of a live job, with the graph `form` asks for.
pub(crate) async fn get(
    db: &impl Db,
    organization: String,
    id: String,
    version: Option<u64>,
    form: GraphForm,
) -> Result<JobRecord, StoreError> {
    let sql = match form {
        GraphForm::Submitted => &BY_ID_SUBMITTED,
        GraphForm::Resolved => &BY_ID_RESOLVED,
    };
    let args = [
        (&id).into(),
        (&organization).into(),
        version.map(sql_version).into(),
    ];
    let row = db.row(sql.text(db.dialect()), &args, job).await?;
    row.map(|(record, _)| record).ok_or(StoreError::NotFound)
}

/// A page of the organization's jobs matching `filter`, oldest first (each job's versions in
/// order), with the graph `form` asks for.
pub(crate) async fn list(
    db: &impl Db,
    organization: String,
    filter: JobFilter,
    form: GraphForm,
    page: PageRequest,
) -> Result<Paged<JobRecord>, StoreError> {
    let mut sql = SqlBuf::new(db.dialect(), select(form));
    sql.push(" AND j.org = ").bind(&organization);
    if !filter.all_versions {
        sql.push(" AND v.version = j.latest_version");
    }
    for (column, values) in [
        ("v.processing", &filter.processing),
        ("v.execution", &filter.execution),
        ("v.state", &filter.states),
        ("j.id", &filter.ids),
    ] {
        if !values.is_empty() {
            sql.push(" AND ").in_list(column, values);
        }
    }
    if let Some(name) = &filter.name {
        sql.push(" AND v.name = ").bind(name);
    }
    if let Some(since) = filter.since_ms {
        sql.push(" AND v.created_at >= ").bind(since);
    }
    let after = page.after.as_ref().map(|key| {
        [
            key.created_at_ms.into(),
            (&key.id).into(),
            sql_version(key.version).into(),
        ]
    });
    sql.page_by(
        "j.created_at, j.id, v.version",
        after.as_ref().map(|a| &a[..]),
        page.fetch(),
    );
    let (text, args) = sql.finish();
    db.page(&text, &args, &page, job).await
}

/// Tombstones a live job (every version).
pub(crate) async fn delete(
    db: &impl Db,
    organization: String,
    id: String,
) -> Result<(), StoreError> {
    let args = [now_ms().into(), (&id).into(), (&organization).into()];
    changed(db.execute(DELETE.text(db.dialect()), &args).await?)
}

/// The organization of a live job, for a trigger.
pub(crate) async fn organization(
    db: &impl Db,
    job_id: String,
) -> Result<Option<String>, StoreError> {
    db.row(
        ORGANIZATION.text(db.dialect()),
        &[(&job_id).into()],
        |row| row.get(0),
    )
    .await
}
