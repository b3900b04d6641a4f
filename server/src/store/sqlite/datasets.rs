//! Datasets and the lake manifest on SQLite (`docs/lake.md` §4): each function runs on a
//! reader connection or inside the writer's `BEGIN IMMEDIATE` transaction.

use rusqlite::types::Value as Sql;
use rusqlite::{Connection, OptionalExtension, Row, Transaction, params};

use super::super::datasets::{
    CommitSummary, DATASET_COLUMNS, LAKE_FILE_COLUMNS, LakeBound, lake_file_page_filter,
    lake_files_filter, tags_text,
};
use super::super::{DatasetFields, DatasetRecord, LakeFileRecord, PageRequest, Paged, StoreError};
use super::backend;
use super::rows::{sql_version, version};
use crate::ids::now_ms;

/// A dataset from [`DATASET_COLUMNS`], and the size of its stored fields.
fn dataset_row(row: &Row<'_>) -> rusqlite::Result<(DatasetRecord, String)> {
    let retention: Option<i64> = row.get(8)?;
    let v: i64 = row.get(2)?;
    Ok((
        DatasetRecord {
            id: row.get(0)?,
            organization: row.get(1)?,
            version: version(v),
            created_at_ms: row.get(3)?,
            updated_at_ms: row.get(4)?,
            fields: DatasetFields {
                name: row.get(5)?,
                description: row.get(6)?,
                partitioning: row.get(7)?,
                retention_days: retention.and_then(|d| u32::try_from(d).ok()),
                promoted_tags: Vec::new(),
            },
        },
        row.get(9)?,
    ))
}

fn dataset_record(
    (mut record, tags): (DatasetRecord, String),
) -> Result<DatasetRecord, StoreError> {
    record.fields.promoted_tags = serde_json::from_str(&tags).map_err(backend)?;
    Ok(record)
}

/// A live dataset matching `column = value` in the organization.
pub(super) fn dataset(
    db: &Connection,
    organization: &str,
    column: &str,
    value: &str,
) -> Result<DatasetRecord, StoreError> {
    let sql = format!(
        "SELECT {DATASET_COLUMNS} FROM datasets \
         WHERE organization = ?1 AND {column} = ?2 AND deleted_at IS NULL"
    );
    let row = db
        .prepare_cached(&sql)?
        .query_row(params![organization, value], dataset_row)
        .optional()?
        .ok_or(StoreError::NotFound)?;
    dataset_record(row)
}

/// [`StoreError::Duplicate`] when a live dataset other than `id` has `name`.
fn name_free(
    tx: &Transaction<'_>,
    organization: &str,
    id: &str,
    name: &str,
) -> Result<(), StoreError> {
    let taken = tx
        .prepare_cached(
            "SELECT id FROM datasets WHERE organization = ?1 AND name = ?2 AND deleted_at IS NULL AND id <> ?3",
        )?
        .query_row(params![organization, name, id], |row| row.get::<_, String>(0))
        .optional()?;
    match taken {
        Some(other) => Err(duplicate(name, &other)),
        None => Ok(()),
    }
}

/// The error of a name another live dataset has.
pub(crate) fn duplicate(name: &str, other: &str) -> StoreError {
    StoreError::Duplicate(format!(
        "a dataset named {name:?} already exists in this organization (id {other:?}): choose another name, or update or delete that one"
    ))
}

/// Inserts a dataset at version 1.
pub(super) fn create(
    tx: &Transaction<'_>,
    organization: String,
    id: String,
    fields: DatasetFields,
) -> Result<DatasetRecord, StoreError> {
    name_free(tx, &organization, &id, &fields.name)?;
    let now = now_ms();
    tx.prepare_cached(
        "INSERT INTO datasets (organization, id, name, description, partitioning, retention_days, \
         promoted_tags, version, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 1, ?8, ?8)",
    )?
    .execute(params![
        organization,
        id,
        fields.name,
        fields.description,
        fields.partitioning,
        fields.retention_days.map(i64::from),
        tags_text(&fields.promoted_tags),
        now
    ])?;
    Ok(DatasetRecord {
        id,
        organization,
        version: 1,
        created_at_ms: now,
        updated_at_ms: now,
        fields,
    })
}

/// Replaces a live dataset's fields under a version check.
pub(super) fn update(
    tx: &Transaction<'_>,
    organization: String,
    id: String,
    expected: Option<u64>,
    fields: DatasetFields,
) -> Result<DatasetRecord, StoreError> {
    let current = dataset(tx, &organization, "id", &id)?;
    if expected.is_some_and(|v| v != current.version) {
        return Err(StoreError::Conflict {
            current: current.version,
        });
    }
    name_free(tx, &organization, &id, &fields.name)?;
    let now = now_ms();
    let next = current.version + 1;
    tx.prepare_cached(
        "UPDATE datasets SET name = ?1, description = ?2, partitioning = ?3, retention_days = ?4, \
         promoted_tags = ?5, version = ?6, updated_at = ?7 WHERE organization = ?8 AND id = ?9",
    )?
    .execute(params![
        fields.name,
        fields.description,
        fields.partitioning,
        fields.retention_days.map(i64::from),
        tags_text(&fields.promoted_tags),
        sql_version(next),
        now,
        organization,
        id
    ])?;
    Ok(DatasetRecord {
        version: next,
        updated_at_ms: now,
        fields,
        ..current
    })
}

/// Tombstones a live dataset.
pub(super) fn delete(
    tx: &Transaction<'_>,
    organization: String,
    id: String,
) -> Result<(), StoreError> {
    let n = tx
        .prepare_cached(
            "UPDATE datasets SET deleted_at = ?1 WHERE organization = ?2 AND id = ?3 AND deleted_at IS NULL",
        )?
        .execute(params![now_ms(), organization, id])?;
    if n == 0 {
        Err(StoreError::NotFound)
    } else {
        Ok(())
    }
}

/// A page of the organization's live datasets, oldest first.
pub(super) fn list(
    db: &Connection,
    organization: String,
    page: &PageRequest,
) -> Result<Paged<DatasetRecord>, StoreError> {
    let mut args = vec![Sql::Text(organization)];
    let mut sql = format!(
        "SELECT {DATASET_COLUMNS} FROM datasets WHERE organization = ? AND deleted_at IS NULL"
    );
    if let Some(after) = &page.after {
        sql.push_str(" AND (created_at, id) > (?, ?)");
        args.push(Sql::Integer(after.created_at_ms));
        args.push(Sql::Text(after.id.clone()));
    }
    sql.push_str(" ORDER BY created_at, id LIMIT ?");
    args.push(Sql::Integer(page.fetch()));
    let mut statement = db.prepare_cached(&sql)?;
    let rows = statement.query_map(rusqlite::params_from_iter(args), dataset_row)?;
    page.take(rows.map(|row| {
        let (record, tags) = row?;
        let size = tags.len() + record.fields.name.len() + record.fields.description.len();
        Ok((dataset_record((record, tags))?, size))
    }))
}

/// Commits a run's files: `false` when the run was committed before.
pub(super) fn commit(
    tx: &Transaction<'_>,
    organization: String,
    dataset_id: String,
    run_id: String,
    files: Vec<LakeFileRecord>,
) -> Result<bool, StoreError> {
    let summary = CommitSummary::of(&files);
    let inserted = tx
        .prepare_cached(
            "INSERT INTO lake_commits (organization, dataset_id, run_id, table_name, files, rows, \
             bytes, committed_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT DO NOTHING",
        )?
        .execute(params![
            organization,
            dataset_id,
            run_id,
            summary.tables,
            summary.files,
            summary.rows,
            summary.bytes,
            now_ms()
        ])?;
    if inserted == 0 {
        return Ok(false);
    }
    let mut insert = tx.prepare_cached(
        "INSERT INTO lake_files (organization, dataset_id, table_name, path, partition_start_us, \
         min_time_us, max_time_us, rows, bytes, row_groups, run_id, stats) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
    )?;
    for file in files {
        insert.execute(params![
            organization,
            dataset_id,
            file.table,
            file.path,
            file.partition_start_us,
            file.min_time_us,
            file.max_time_us,
            file.rows,
            file.bytes,
            file.row_groups,
            file.run_id,
            file.stats
        ])?;
    }
    Ok(true)
}

/// A `lake_files` row from [`LAKE_FILE_COLUMNS`].
fn file_row(row: &Row<'_>) -> rusqlite::Result<LakeFileRecord> {
    Ok(LakeFileRecord {
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
    })
}

/// The bound values of a manifest read, after the organization and the dataset id.
fn lake_args(organization: String, dataset_id: String, bounds: Vec<LakeBound>) -> Vec<Sql> {
    let mut args = vec![Sql::Text(organization), Sql::Text(dataset_id)];
    args.extend(bounds.into_iter().map(|b| match b {
        LakeBound::Text(t) => Sql::Text(t),
        LakeBound::Int(n) => Sql::Integer(n),
    }));
    args
}

/// The committed files of a dataset overlapping a time range.
pub(super) fn files(
    db: &Connection,
    organization: String,
    dataset_id: String,
    table: Option<String>,
    start_us: Option<i64>,
    end_us: Option<i64>,
) -> Result<Vec<LakeFileRecord>, StoreError> {
    let (filter, bounds) = lake_files_filter(&table, start_us, end_us);
    let sql = format!("SELECT {LAKE_FILE_COLUMNS} FROM lake_files WHERE {filter}");
    let args = lake_args(organization, dataset_id, bounds);
    let mut statement = db.prepare_cached(&sql)?;
    let rows = statement.query_map(rusqlite::params_from_iter(args), file_row)?;
    Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
}

/// A page of a dataset's committed files (keyset: after the cursor's file key).
pub(super) fn file_page(
    db: &Connection,
    organization: String,
    dataset_id: String,
    page: &PageRequest,
) -> Result<Paged<LakeFileRecord>, StoreError> {
    let after = page.after.as_ref().and_then(|key| key.file.as_ref());
    // SQLite compares text as bytes (its default BINARY collation).
    let (filter, bounds) = lake_file_page_filter(after, "path");
    let sql = format!("SELECT {LAKE_FILE_COLUMNS} FROM lake_files WHERE {filter} LIMIT ?");
    let mut args = lake_args(organization, dataset_id, bounds);
    args.push(Sql::Integer(page.fetch()));
    let mut statement = db.prepare_cached(&sql)?;
    let rows = statement.query_map(rusqlite::params_from_iter(args), file_row)?;
    page.take(rows.map(|row| {
        let file = row?;
        let size = file.stored_size();
        Ok((file, size))
    }))
}
