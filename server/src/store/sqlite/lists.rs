//! The listings of the SQLite store, one page at a time: keyset pagination (`WHERE (sort key) >
//! (the cursor's key) ORDER BY sort key LIMIT page + 1`), rows read lazily so that a page that
//! ends on its byte budget reads no further row.

use rusqlite::Connection;
use rusqlite::types::Value as Sql;

use super::super::{
    GraphForm, JOB_COLUMNS, JobFilter, JobRecord, PageRequest, Paged, StoreError, TEMPLATE_COLUMNS,
    TemplateRecord,
};
use super::rows::{job_row, sql_version, template_record, template_row};

/// Runs a template query and takes one page of its rows (sized by their stored fields' text).
fn template_page(
    db: &Connection,
    sql: &str,
    args: Vec<Sql>,
    page: &PageRequest,
) -> Result<Paged<TemplateRecord>, StoreError> {
    let mut statement = db.prepare_cached(sql)?;
    let rows = statement.query_map(rusqlite::params_from_iter(args), template_row)?;
    page.take(rows.map(|row| {
        let (record, fields) = row?;
        let size = fields.len();
        Ok((template_record((record, fields))?, size))
    }))
}

fn template_select(filter: &str) -> String {
    format!(
        "SELECT {TEMPLATE_COLUMNS} FROM templates t JOIN template_versions v ON v.template_id = t.id \
         WHERE t.deleted_at IS NULL AND {filter}"
    )
}

/// A page of the latest versions of the organization's templates, oldest template first.
pub(super) fn list_templates(
    db: &Connection,
    organization: String,
    page: &PageRequest,
) -> Result<Paged<TemplateRecord>, StoreError> {
    let mut args = vec![Sql::Text(organization)];
    let mut filter = String::from("t.org = ? AND v.version = t.latest_version");
    if let Some(after) = &page.after {
        filter.push_str(" AND (t.created_at, t.id) > (?, ?)");
        args.push(Sql::Integer(after.created_at_ms));
        args.push(Sql::Text(after.id.clone()));
    }
    filter.push_str(" ORDER BY t.created_at, t.id LIMIT ?");
    args.push(Sql::Integer(page.fetch()));
    template_page(db, &template_select(&filter), args, page)
}

/// A page of one template's versions, oldest first; not found when the template is not live.
pub(super) fn template_versions(
    db: &Connection,
    organization: String,
    id: String,
    page: &PageRequest,
) -> Result<Paged<TemplateRecord>, StoreError> {
    let after = page
        .after
        .as_ref()
        .map_or(0, |key| sql_version(key.version));
    let args = vec![
        Sql::Text(id.clone()),
        Sql::Text(organization.clone()),
        Sql::Integer(after),
        Sql::Integer(page.fetch()),
    ];
    let sql =
        template_select("t.id = ? AND t.org = ? AND v.version > ? ORDER BY v.version LIMIT ?");
    let versions = template_page(db, &sql, args, page)?;
    if versions.items.is_empty() {
        let live: bool = db
            .prepare_cached(
                "SELECT EXISTS (SELECT 1 FROM templates WHERE id = ?1 AND org = ?2 AND deleted_at IS NULL)",
            )?
            .query_row([&id, &organization], |row| row.get(0))?;
        if !live {
            return Err(StoreError::NotFound);
        }
    }
    Ok(versions)
}

/// A page of the jobs of `organization` matching `filter`, oldest first (each job's versions in
/// order).
pub(super) fn list_jobs(
    db: &Connection,
    organization: &str,
    filter: JobFilter,
    form: GraphForm,
    page: &PageRequest,
) -> Result<Paged<JobRecord>, StoreError> {
    let graph = form.column();
    let mut sql = format!(
        "SELECT {JOB_COLUMNS}, {graph} FROM jobs j JOIN job_versions v ON v.job_id = j.id \
         WHERE j.org = ? AND j.deleted_at IS NULL"
    );
    let mut args = vec![Sql::Text(organization.to_owned())];
    if !filter.all_versions {
        sql.push_str(" AND v.version = j.latest_version");
    }
    for (column, values) in [
        ("v.processing", filter.processing),
        ("v.execution", filter.execution),
        ("v.state", filter.states),
        ("j.id", filter.ids),
    ] {
        if !values.is_empty() {
            let marks = vec!["?"; values.len()].join(", ");
            sql.push_str(&format!(" AND {column} IN ({marks})"));
            args.extend(values.into_iter().map(Sql::Text));
        }
    }
    if let Some(name) = filter.name {
        sql.push_str(" AND v.name = ?");
        args.push(Sql::Text(name));
    }
    if let Some(since) = filter.since_ms {
        sql.push_str(" AND v.created_at >= ?");
        args.push(Sql::Integer(since));
    }
    if let Some(after) = &page.after {
        sql.push_str(" AND (j.created_at, j.id, v.version) > (?, ?, ?)");
        args.push(Sql::Integer(after.created_at_ms));
        args.push(Sql::Text(after.id.clone()));
        args.push(Sql::Integer(sql_version(after.version)));
    }
    sql.push_str(" ORDER BY j.created_at, j.id, v.version LIMIT ?");
    args.push(Sql::Integer(page.fetch()));
    let mut statement = db.prepare_cached(&sql)?;
    let rows = statement.query_map(rusqlite::params_from_iter(args), job_row)?;
    page.take(rows.map(|row| {
        let record = row?;
        let size = record.graph.get().len() + record.meta.name.len();
        Ok((record, size))
    }))
}
