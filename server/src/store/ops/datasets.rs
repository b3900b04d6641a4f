//! Datasets and the lake manifest (`datasets`, `lake_commits`, `lake_files`; `docs/lake.md`
//! §4). The name of a live dataset is unique under a partial unique index: a write checks it
//! first, for a message that names the other dataset, and the index settles a race between
//! replicas (one dataset, one [`StoreError::Duplicate`]).

use super::{json, sql_version, version};
use crate::ids::now_ms;
use crate::store::datasets::{CommitSummary, tags_text};
use crate::store::sql::{Db, RowRef, Sql, SqlBuf, changed};
use crate::store::{DatasetFields, DatasetRecord, LakeFileRecord, PageRequest, Paged, StoreError};

/// The columns of a dataset, in [`dataset`]'s order.
macro_rules! dataset_select {
    () => {
        "SELECT id, organization, version, created_at, updated_at, name, description, \
         partitioning, retention_days, promoted_tags, team_ids FROM datasets \
         WHERE organization = ?1 AND deleted_at IS NULL"
    };
}

/// The columns of a committed file, in [`file`]'s order.
macro_rules! file_select {
    () => {
        "SELECT table_name, path, partition_start_us, min_time_us, max_time_us, rows, bytes, \
         row_groups, run_id, stats FROM lake_files WHERE organization = "
    };
}

static BY_ID: Sql = Sql::new(concat!(dataset_select!(), " AND id = ?2"));
static BY_NAME: Sql = Sql::new(concat!(dataset_select!(), " AND name = ?2"));
/// The dataset's row, locked on PostgreSQL for the rest of the transaction.
static LOCK: Sql = Sql::new(concat!(dataset_select!(), " AND id = ?2{for_update}"));
static NAME_TAKEN: Sql = Sql::new(
    "SELECT id FROM datasets WHERE organization = ?1 AND name = ?2 AND deleted_at IS NULL AND id <> ?3",
);
static CREATE: Sql = Sql::new(
    "INSERT INTO datasets (organization, id, name, description, partitioning, retention_days, \
     promoted_tags, version, created_at, updated_at, team_ids) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 1, ?8, ?8, ?9)",
);
static UPDATE: Sql = Sql::new(
    "UPDATE datasets SET name = ?3, description = ?4, partitioning = ?5, retention_days = ?6, \
     promoted_tags = ?7, version = ?8, updated_at = ?9, team_ids = ?10 \
     WHERE organization = ?1 AND id = ?2",
);
static DELETE: Sql = Sql::new(
    "UPDATE datasets SET deleted_at = ?3 WHERE organization = ?1 AND id = ?2 AND deleted_at IS NULL",
);
static COMMIT: Sql = Sql::new(
    "INSERT INTO lake_commits (organization, dataset_id, run_id, table_name, files, rows, \
     bytes, committed_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT DO NOTHING",
);
static INSERT_FILE: Sql = Sql::new(
    "INSERT INTO lake_files (organization, dataset_id, table_name, path, partition_start_us, \
     min_time_us, max_time_us, rows, bytes, row_groups, run_id, stats) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
);

/// Numbers a dataset's next commit; the row stays locked until the transaction ends, so commits
/// to one dataset are numbered in the order they commit (what a streaming source reads by).
static NEXT_SEQ: Sql = Sql::new(
    "UPDATE datasets SET commit_seq = commit_seq + 1 WHERE organization = ?1 AND id = ?2 \
     RETURNING commit_seq",
);
static SET_SEQ: Sql = Sql::new(
    "UPDATE lake_commits SET seq = ?1 WHERE organization = ?2 AND dataset_id = ?3 AND run_id = ?4",
);
static LAST_SEQ: Sql =
    Sql::new("SELECT commit_seq FROM datasets WHERE organization = ?1 AND id = ?2");
/// The files of a dataset's table committed after a commit number, up to another, in commit
/// then path order, each with its commit's number.
static COMMITTED_AFTER: Sql = Sql::new(
    "SELECT f.table_name, f.path, f.partition_start_us, f.min_time_us, f.max_time_us, f.rows, \
     f.bytes, f.row_groups, f.run_id, f.stats, c.seq FROM lake_commits c \
     JOIN lake_files f ON f.organization = c.organization AND f.dataset_id = c.dataset_id \
     AND f.run_id = c.run_id \
     WHERE c.organization = ?1 AND c.dataset_id = ?2 AND c.seq > ?3 AND c.seq <= ?4 \
     AND f.table_name = ?5 ORDER BY c.seq, f.path{bytes}",
);

/// The files of a dataset's table overlapping a time range that were committed by commit
/// `as_of` (files of commits made before commits were numbered count as committed by it), in
/// partition, time, then path order: what a backfill reads, whatever is committed after it
/// started.
static FILES_AS_OF: Sql = Sql::new(
    "SELECT f.table_name, f.path, f.partition_start_us, f.min_time_us, f.max_time_us, f.rows, \
     f.bytes, f.row_groups, f.run_id, f.stats FROM lake_files f \
     LEFT JOIN lake_commits c ON c.organization = f.organization \
     AND c.dataset_id = f.dataset_id AND c.run_id = f.run_id \
     WHERE f.organization = ?1 AND f.dataset_id = ?2 AND f.table_name = ?3 \
     AND f.max_time_us >= ?4 AND f.min_time_us < ?5 AND (c.seq IS NULL OR c.seq <= ?6) \
     ORDER BY f.partition_start_us, f.min_time_us, f.path{bytes}",
);

/// A dataset and its stored size (name, description and promoted tags' text).
fn dataset(row: &RowRef<'_>) -> Result<(DatasetRecord, usize), StoreError> {
    let retention: Option<i64> = row.get(8)?;
    let tags: String = row.get(9)?;
    let record = DatasetRecord {
        id: row.get(0)?,
        organization: row.get(1)?,
        version: version(row.get(2)?),
        created_at_ms: row.get(3)?,
        updated_at_ms: row.get(4)?,
        fields: DatasetFields {
            name: row.get(5)?,
            description: row.get(6)?,
            partitioning: row.get(7)?,
            retention_days: retention.and_then(|d| u32::try_from(d).ok()),
            promoted_tags: json(&tags, "promoted tags")?,
            team_ids: json(&row.get::<String>(10)?, "dataset teams")?,
        },
    };
    let size = record.fields.name.len() + record.fields.description.len() + tags.len();
    Ok((record, size))
}

/// A committed file and its stored size.
fn file(row: &RowRef<'_>) -> Result<(LakeFileRecord, usize), StoreError> {
    let file = LakeFileRecord {
        table: row.get(0)?,
        path: row.get(1)?,
        partition_start_us: row.get(2)?,
        min_time_us: row.get(3)?,
        max_time_us: row.get(4)?,
        rows: row.get(5)?,
        bytes: row.get(6)?,
        row_groups: row.get(7)?,
        run_id: row.get(8)?,
        stats: row.get(9)?,
    };
    let size = file.stored_size();
    Ok((file, size))
}

/// The error of a name another live dataset has (`other`: its id, when known).
fn duplicate(name: &str, other: Option<&str>) -> StoreError {
    let other = other.map(|id| format!(" (id {id:?})")).unwrap_or_default();
    StoreError::Duplicate(format!(
        "a dataset named {name:?} already exists in this organization{other}: choose another name, or update or delete that one"
    ))
}

/// [`StoreError::Duplicate`] when a live dataset other than `id` has `name`.
async fn name_free(
    db: &impl Db,
    organization: &str,
    id: &str,
    name: &str,
) -> Result<(), StoreError> {
    let args = [organization.into(), name.into(), id.into()];
    let taken = db
        .row(NAME_TAKEN.text(db.dialect()), &args, |row| {
            row.get::<String>(0)
        })
        .await?;
    match taken {
        Some(other) => Err(duplicate(name, Some(&other))),
        None => Ok(()),
    }
}

/// A live dataset by id.
pub(crate) async fn get(
    db: &impl Db,
    organization: String,
    id: String,
) -> Result<DatasetRecord, StoreError> {
    let args = [(&organization).into(), (&id).into()];
    let row = db.row(BY_ID.text(db.dialect()), &args, dataset).await?;
    row.map(|(record, _)| record).ok_or(StoreError::NotFound)
}

/// A live dataset by name.
pub(crate) async fn by_name(
    db: &impl Db,
    organization: String,
    name: String,
) -> Result<DatasetRecord, StoreError> {
    let args = [(&organization).into(), (&name).into()];
    let row = db.row(BY_NAME.text(db.dialect()), &args, dataset).await?;
    row.map(|(record, _)| record).ok_or(StoreError::NotFound)
}

/// Creates a dataset at version 1.
pub(crate) async fn create(
    db: &impl Db,
    organization: String,
    id: String,
    fields: DatasetFields,
) -> Result<DatasetRecord, StoreError> {
    name_free(db, &organization, &id, &fields.name).await?;
    let now = now_ms();
    let tags = tags_text(&fields.promoted_tags);
    let teams = tags_text(&fields.team_ids);
    let args = [
        (&organization).into(),
        (&id).into(),
        (&fields.name).into(),
        (&fields.description).into(),
        (&fields.partitioning).into(),
        fields.retention_days.map(i64::from).into(),
        tags.as_str().into(),
        now.into(),
        teams.as_str().into(),
    ];
    if db
        .execute_unique(CREATE.text(db.dialect()), &args)
        .await?
        .is_none()
    {
        return Err(duplicate(&fields.name, None));
    }
    Ok(DatasetRecord {
        id,
        organization,
        version: 1,
        created_at_ms: now,
        updated_at_ms: now,
        fields,
    })
}

/// Replaces a live dataset's fields under a version check (its row locked).
pub(crate) async fn update(
    db: &impl Db,
    organization: String,
    id: String,
    expected: Option<u64>,
    fields: DatasetFields,
) -> Result<DatasetRecord, StoreError> {
    let d = db.dialect();
    let args = [(&organization).into(), (&id).into()];
    let (current, _) = db
        .row(LOCK.text(d), &args, dataset)
        .await?
        .ok_or(StoreError::NotFound)?;
    if expected.is_some_and(|v| v != current.version) {
        return Err(StoreError::Conflict {
            current: current.version,
        });
    }
    name_free(db, &organization, &id, &fields.name).await?;
    let now = now_ms();
    let next = current.version + 1;
    let tags = tags_text(&fields.promoted_tags);
    let teams = tags_text(&fields.team_ids);
    let args = [
        (&organization).into(),
        (&id).into(),
        (&fields.name).into(),
        (&fields.description).into(),
        (&fields.partitioning).into(),
        fields.retention_days.map(i64::from).into(),
        tags.as_str().into(),
        sql_version(next).into(),
        now.into(),
        teams.as_str().into(),
    ];
    if db.execute_unique(UPDATE.text(d), &args).await?.is_none() {
        return Err(duplicate(&fields.name, None));
    }
    Ok(DatasetRecord {
        version: next,
        updated_at_ms: now,
        fields,
        ..current
    })
}

/// Tombstones a live dataset: its name is free again; its manifest rows stay.
pub(crate) async fn delete(
    db: &impl Db,
    organization: String,
    id: String,
) -> Result<(), StoreError> {
    let args = [(&organization).into(), (&id).into(), now_ms().into()];
    changed(db.execute(DELETE.text(db.dialect()), &args).await?)
}

/// A page of the organization's live datasets, oldest first.
pub(crate) async fn list(
    db: &impl Db,
    organization: String,
    page: PageRequest,
) -> Result<Paged<DatasetRecord>, StoreError> {
    let mut sql = SqlBuf::new(
        db.dialect(),
        "SELECT id, organization, version, created_at, updated_at, name, description, \
         partitioning, retention_days, promoted_tags, team_ids FROM datasets \
         WHERE organization = ",
    );
    sql.bind(&organization).push(" AND deleted_at IS NULL");
    let after = page
        .after
        .as_ref()
        .map(|key| [key.created_at_ms.into(), (&key.id).into()]);
    sql.page_by(
        "created_at, id",
        after.as_ref().map(|a| &a[..]),
        page.fetch(),
    );
    let (text, args) = sql.finish();
    db.page(&text, &args, &page, dataset).await
}

/// Commits a run's files: `false` (nothing written) when the run was committed before.
pub(crate) async fn commit(
    db: &impl Db,
    organization: String,
    dataset_id: String,
    run_id: String,
    files: Vec<LakeFileRecord>,
) -> Result<bool, StoreError> {
    let d = db.dialect();
    let summary = CommitSummary::of(&files);
    let args = [
        (&organization).into(),
        (&dataset_id).into(),
        (&run_id).into(),
        summary.tables.as_str().into(),
        summary.files.into(),
        summary.rows.into(),
        summary.bytes.into(),
        now_ms().into(),
    ];
    if db.execute(COMMIT.text(d), &args).await? == 0 {
        return Ok(false);
    }
    let ids = [(&organization).into(), (&dataset_id).into()];
    let seq: i64 = db
        .row(NEXT_SEQ.text(d), &ids, |row| row.get(0))
        .await?
        .unwrap_or(0);
    let args = [
        seq.into(),
        (&organization).into(),
        (&dataset_id).into(),
        (&run_id).into(),
    ];
    db.execute(SET_SEQ.text(d), &args).await?;
    for file in &files {
        let args = [
            (&organization).into(),
            (&dataset_id).into(),
            (&file.table).into(),
            (&file.path).into(),
            file.partition_start_us.into(),
            file.min_time_us.into(),
            file.max_time_us.into(),
            file.rows.into(),
            file.bytes.into(),
            file.row_groups.into(),
            (&file.run_id).into(),
            (&file.stats).into(),
        ];
        db.execute(INSERT_FILE.text(d), &args).await?;
    }
    Ok(true)
}

/// The committed files of a dataset (deleted ones too) of `table` (any when `None`)
/// overlapping `[start_us, end_us)` (unbounded on a side given as `None`), in partition, then
/// time, then path order.
pub(crate) async fn files(
    db: &impl Db,
    organization: String,
    dataset_id: String,
    table: Option<String>,
    start_us: Option<i64>,
    end_us: Option<i64>,
) -> Result<Vec<LakeFileRecord>, StoreError> {
    let mut sql = SqlBuf::new(db.dialect(), file_select!());
    sql.bind(&organization)
        .push(" AND dataset_id = ")
        .bind(&dataset_id);
    if let Some(table) = &table {
        sql.push(" AND table_name = ").bind(table);
    }
    if let Some(start) = start_us {
        sql.push(" AND max_time_us >= ").bind(start);
    }
    if let Some(end) = end_us {
        sql.push(" AND min_time_us < ").bind(end);
    }
    sql.push(" ORDER BY partition_start_us, min_time_us, path");
    let (text, args) = sql.finish();
    db.rows(&text, &args, |row| Ok(file(row)?.0)).await
}

/// A page of a dataset's committed files (every table), after the cursor's file key, in
/// partition, time, then path order, the path compared byte by byte on both databases whatever
/// their locale (as the `lake_files_listing` index is built).
pub(crate) async fn file_page(
    db: &impl Db,
    organization: String,
    dataset_id: String,
    page: PageRequest,
) -> Result<Paged<LakeFileRecord>, StoreError> {
    let mut sql = SqlBuf::new(db.dialect(), file_select!());
    sql.bind(&organization)
        .push(" AND dataset_id = ")
        .bind(&dataset_id);
    let after = page
        .after
        .as_ref()
        .and_then(|key| key.file.as_ref())
        .map(|key| {
            [
                key.partition_start_us.into(),
                key.min_time_us.into(),
                (&key.path).into(),
            ]
        });
    sql.page_by(
        "partition_start_us, min_time_us, path{bytes}",
        after.as_ref().map(|a| &a[..]),
        page.fetch(),
    );
    let (text, args) = sql.finish();
    db.page(&text, &args, &page, file).await
}

/// The number of a dataset's last commit (0 before the first): where a streaming source that
/// starts now begins.
pub(crate) async fn last_commit(
    db: &impl Db,
    organization: String,
    dataset_id: String,
) -> Result<i64, StoreError> {
    let args = [(&organization).into(), (&dataset_id).into()];
    db.row(LAST_SEQ.text(db.dialect()), &args, |row| row.get(0))
        .await?
        .ok_or(StoreError::NotFound)
}

/// The files of `table` committed to a dataset after commit `after` and up to `upto`, each with
/// its commit's number, in commit order.
pub(crate) async fn committed_after(
    db: &impl Db,
    organization: String,
    dataset_id: String,
    table: String,
    after: i64,
    upto: i64,
) -> Result<Vec<(i64, LakeFileRecord)>, StoreError> {
    let args = [
        (&organization).into(),
        (&dataset_id).into(),
        after.into(),
        upto.into(),
        (&table).into(),
    ];
    db.rows(COMMITTED_AFTER.text(db.dialect()), &args, |row| {
        Ok((row.get(10)?, file(row)?.0))
    })
    .await
}

/// The files of `table` overlapping `[start_us, end_us)` committed by commit `as_of`, in
/// partition, time, then path order.
pub(crate) async fn files_as_of(
    db: &impl Db,
    organization: String,
    dataset_id: String,
    table: String,
    start_us: i64,
    end_us: i64,
    as_of: i64,
) -> Result<Vec<LakeFileRecord>, StoreError> {
    let args = [
        (&organization).into(),
        (&dataset_id).into(),
        (&table).into(),
        start_us.into(),
        end_us.into(),
        as_of.into(),
    ];
    db.rows(
        FILES_AS_OF.text(db.dialect()),
        &args,
        |row| Ok(file(row)?.0),
    )
    .await
}
