//! Rows of the SQLite store: column lists, row decoding, inserts and the queries shared by
//! several [`Store`](super::super::Store) methods.

use rusqlite::{Connection, OptionalExtension, Row, params};

use serde_json::value::RawValue;

use super::super::{
    GraphForm, JOB_COLUMNS, JobFields, JobMeta, JobRecord, NewTemplateVersion, StoreError,
    TEMPLATE_COLUMNS, TemplateRecord,
};
use super::backend;

pub(super) fn version(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

pub(super) fn sql_version(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

pub(super) fn template_row(row: &Row<'_>) -> rusqlite::Result<(TemplateRecord, String)> {
    let v: i64 = row.get(2)?;
    let latest: i64 = row.get(3)?;
    Ok((
        TemplateRecord {
            id: row.get(0)?,
            organization: row.get(1)?,
            version: version(v),
            latest: v == latest,
            created_at_ms: row.get(4)?,
            updated_at_ms: row.get(5)?,
            source_hash: row.get(6)?,
            edited_by: row.get(7)?,
            fields: Default::default(),
        },
        row.get(8)?,
    ))
}

pub(super) fn template_record(
    (mut record, fields): (TemplateRecord, String),
) -> Result<TemplateRecord, StoreError> {
    record.fields = serde_json::from_str(&fields).map_err(backend)?;
    Ok(record)
}

pub(super) fn query_templates(
    db: &Connection,
    filter: &str,
    params: &[&dyn rusqlite::ToSql],
) -> Result<Vec<TemplateRecord>, StoreError> {
    let sql = format!(
        "SELECT {TEMPLATE_COLUMNS} FROM templates t JOIN template_versions v ON v.template_id = t.id \
         WHERE t.deleted_at IS NULL AND {filter}"
    );
    let mut statement = db.prepare_cached(&sql)?;
    let rows = statement.query_map(params, template_row)?;
    rows.map(|row| template_record(row?)).collect()
}

pub(super) fn insert_template_version(
    tx: &rusqlite::Transaction<'_>,
    id: &str,
    version: u64,
    new: &NewTemplateVersion,
    now: i64,
) -> Result<(), StoreError> {
    let fields = serde_json::to_string(&new.fields).map_err(backend)?;
    tx.prepare_cached(
        "INSERT INTO template_versions (template_id, version, fields, source_hash, edited_by, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![id, sql_version(version), fields, new.source_hash, new.edited_by, now])?;
    Ok(())
}

pub(super) fn json<T: serde::de::DeserializeOwned>(text: &str) -> rusqlite::Result<T> {
    serde_json::from_str(text).map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))
}

/// A job version's row: [`JOB_COLUMNS`] then the graph, which stays JSON text.
pub(super) fn job_row(row: &Row<'_>) -> rusqlite::Result<JobRecord> {
    let v: i64 = row.get(2)?;
    let latest: i64 = row.get(3)?;
    let graph = RawValue::from_string(row.get(14)?)
        .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?;
    Ok(JobRecord {
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
            tags: json(&row.get::<_, String>(11)?)?,
            templates: json(&row.get::<_, String>(12)?)?,
            edited_by: row.get(13)?,
        },
        graph,
    })
}

pub(super) fn insert_job_version(
    tx: &rusqlite::Transaction<'_>,
    id: &str,
    version: u64,
    fields: &JobFields,
    now: i64,
) -> Result<(), StoreError> {
    tx.prepare_cached(
        "INSERT INTO job_versions (job_id, version, name, execution, processing, state, \
         desired_state, tags, definition, resolved, templates, edited_by, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
    )?
    .execute(params![
        id,
        sql_version(version),
        fields.meta.name,
        fields.meta.execution,
        fields.meta.processing,
        fields.meta.state,
        fields.meta.desired_state,
        to_text(&fields.meta.tags)?,
        to_text(&fields.definition)?,
        to_text(&fields.resolved)?,
        to_text(&fields.meta.templates)?,
        fields.meta.edited_by,
        now
    ])?;
    Ok(())
}

pub(super) fn to_text<T: serde::Serialize>(value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(backend)
}

pub(super) fn read_job(
    db: &Connection,
    org: &str,
    id: &str,
    version: Option<u64>,
    form: GraphForm,
) -> Result<JobRecord, StoreError> {
    let graph = form.column();
    let sql = format!(
        "SELECT {JOB_COLUMNS}, {graph} FROM jobs j JOIN job_versions v ON v.job_id = j.id \
         WHERE j.id = ?1 AND j.org = ?2 AND j.deleted_at IS NULL \
         AND v.version = COALESCE(?3, j.latest_version)"
    );
    db.prepare_cached(&sql)?
        .query_row(params![id, org, version.map(sql_version)], job_row)
        .optional()?
        .ok_or(StoreError::NotFound)
}
