//! Rows of the PostgreSQL store: decoding, the version inserts, the job listing's SQL.

use deadpool_postgres::Transaction;
use serde_json::value::RawValue;
use tokio_postgres::Row;
use tokio_postgres::types::ToSql;

pub(super) use super::super::{JOB_COLUMNS, TEMPLATE_COLUMNS};
use super::super::{JobFields, JobMeta, JobRecord, NewTemplateVersion, StoreError, TemplateRecord};

pub(super) fn version(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

pub(super) fn sql_version(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn json<T: serde::de::DeserializeOwned>(text: &str, what: &str) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Backend(format!("stored {what}: {e}")))
}

/// A template version from [`TEMPLATE_COLUMNS`].
pub(super) fn template_record(row: &Row) -> Result<TemplateRecord, StoreError> {
    let v: i64 = row.try_get(2)?;
    let latest: i64 = row.try_get(3)?;
    Ok(TemplateRecord {
        id: row.try_get(0)?,
        organization: row.try_get(1)?,
        version: version(v),
        latest: v == latest,
        created_at_ms: row.try_get(4)?,
        updated_at_ms: row.try_get(5)?,
        source_hash: row.try_get(6)?,
        edited_by: row.try_get(7)?,
        fields: json(row.try_get(8)?, "template fields")?,
    })
}

/// A job version from [`JOB_COLUMNS`] and one graph, kept as JSON text.
pub(super) fn job_record(row: &Row) -> Result<JobRecord, StoreError> {
    let v: i64 = row.try_get(2)?;
    let latest: i64 = row.try_get(3)?;
    let graph = RawValue::from_string(row.try_get(14)?)
        .map_err(|e| StoreError::Backend(format!("stored job graph: {e}")))?;
    Ok(JobRecord {
        id: row.try_get(0)?,
        organization: row.try_get(1)?,
        version: version(v),
        latest: v == latest,
        created_at_ms: row.try_get(4)?,
        updated_at_ms: row.try_get(5)?,
        meta: JobMeta {
            name: row.try_get(6)?,
            execution: row.try_get(7)?,
            processing: row.try_get(8)?,
            state: row.try_get(9)?,
            desired_state: row.try_get(10)?,
            tags: json(row.try_get(11)?, "job tags")?,
            templates: json(row.try_get(12)?, "job templates")?,
            edited_by: row.try_get(13)?,
        },
        graph,
    })
}

/// One statement inside a transaction (prepared once per connection): rows changed.
pub(super) async fn tx_execute(
    tx: &Transaction<'_>,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
) -> Result<u64, StoreError> {
    let statement = tx.prepare_cached(sql).await?;
    Ok(tx.execute(&statement, params).await?)
}

/// One statement inside a transaction: its row, if any.
pub(super) async fn tx_row(
    tx: &Transaction<'_>,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
) -> Result<Option<Row>, StoreError> {
    let statement = tx.prepare_cached(sql).await?;
    Ok(tx.query_opt(&statement, params).await?)
}

/// The tables whose rows carry a `latest_version`.
#[derive(Clone, Copy)]
pub(super) enum Versioned {
    Templates,
    Jobs,
}

/// Locks a live template's or job's row for the rest of the transaction (`FOR UPDATE`: the
/// lock orders concurrent writers, whichever replica they come through) and returns its latest
/// version and creation time; not found when it does not exist or was deleted.
pub(super) async fn lock_latest(
    tx: &Transaction<'_>,
    table: Versioned,
    id: &str,
    organization: &str,
) -> Result<(u64, i64), StoreError> {
    let sql = match table {
        Versioned::Templates => {
            "SELECT latest_version, created_at FROM templates \
             WHERE id = $1 AND org = $2 AND deleted_at IS NULL FOR UPDATE"
        }
        Versioned::Jobs => {
            "SELECT latest_version, created_at FROM jobs \
             WHERE id = $1 AND org = $2 AND deleted_at IS NULL FOR UPDATE"
        }
    };
    let row = tx_row(tx, sql, &[&id, &organization])
        .await?
        .ok_or(StoreError::NotFound)?;
    Ok((version(row.try_get(0)?), row.try_get(1)?))
}

fn to_text<T: serde::Serialize>(value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|e| StoreError::Backend(e.to_string()))
}

pub(super) async fn insert_template_version(
    tx: &Transaction<'_>,
    id: &str,
    version: u64,
    new: &NewTemplateVersion,
    now: i64,
) -> Result<(), StoreError> {
    tx_execute(
        tx,
        "INSERT INTO template_versions (template_id, version, fields, source_hash, edited_by, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
        &[
            &id,
            &sql_version(version),
            &to_text(&new.fields)?,
            &new.source_hash,
            &new.edited_by,
            &now,
        ],
    )
    .await?;
    Ok(())
}

pub(super) async fn insert_job_version(
    tx: &Transaction<'_>,
    id: &str,
    version: u64,
    fields: &JobFields,
    now: i64,
) -> Result<(), StoreError> {
    let meta = &fields.meta;
    tx_execute(
        tx,
        "INSERT INTO job_versions (job_id, version, name, execution, processing, state, \
         desired_state, tags, definition, resolved, templates, edited_by, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
        &[
            &id,
            &sql_version(version),
            &meta.name,
            &meta.execution,
            &meta.processing,
            &meta.state,
            &meta.desired_state,
            &to_text(&meta.tags)?,
            &to_text(&fields.definition)?,
            &to_text(&fields.resolved)?,
            &to_text(&meta.templates)?,
            &meta.edited_by,
            &now,
        ],
    )
    .await?;
    Ok(())
}
