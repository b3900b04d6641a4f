//! The listings of the PostgreSQL store, one page at a time: keyset pagination (`WHERE (sort
//! key) > (the cursor's key) ORDER BY sort key LIMIT page + 1`), rows read from the server's
//! stream one by one so that a page that ends on its byte budget holds no further row.

use futures_util::TryStreamExt;
use tokio_postgres::Row;
use tokio_postgres::types::ToSql;

use super::PostgresStore;
use super::rows::{JOB_COLUMNS, TEMPLATE_COLUMNS, job_record, sql_version, template_record};
use crate::store::{
    GraphForm, JobFilter, JobRecord, PageFill, PageRequest, Paged, StoreError, TemplateRecord,
};

/// Arguments of a statement built at run time.
pub(super) type Args = Vec<Box<dyn ToSql + Sync + Send>>;

/// A template version and its stored size (the text of its fields).
fn sized_template(row: &Row) -> Result<(TemplateRecord, usize), StoreError> {
    let size = row.try_get::<_, &str>(8)?.len();
    Ok((template_record(row)?, size))
}

/// A job version and its stored size (its graph and name).
fn sized_job(row: &Row) -> Result<(JobRecord, usize), StoreError> {
    let record = job_record(row)?;
    let size = record.graph.get().len() + record.meta.name.len();
    Ok((record, size))
}

fn template_select(filter: &str) -> String {
    format!(
        "SELECT {TEMPLATE_COLUMNS} FROM templates t JOIN template_versions v ON v.template_id = t.id \
         WHERE t.deleted_at IS NULL AND {filter}"
    )
}

impl PostgresStore {
    /// Runs a statement and takes one page of its rows, reading them as they arrive.
    pub(super) async fn page<T>(
        &self,
        sql: &str,
        args: Args,
        page: &PageRequest,
        decode: fn(&Row) -> Result<(T, usize), StoreError>,
    ) -> Result<Paged<T>, StoreError> {
        let db = self.pool.get().await?;
        let statement = db.prepare_cached(sql).await?;
        let params = args.iter().map(|a| a.as_ref() as &(dyn ToSql + Sync));
        let rows = db.query_raw(&statement, params).await?;
        let mut rows = std::pin::pin!(rows);
        let mut fill = PageFill::new(page);
        while let Some(row) = rows.try_next().await? {
            if !fill.push(decode(&row)?) {
                break;
            }
        }
        Ok(fill.done())
    }

    /// A page of the latest versions of the organization's templates, oldest template first.
    pub(super) async fn template_page(
        &self,
        organization: String,
        page: PageRequest,
    ) -> Result<Paged<TemplateRecord>, StoreError> {
        let mut args: Args = vec![Box::new(organization)];
        let mut filter = String::from("t.org = $1 AND v.version = t.latest_version");
        if let Some(after) = &page.after {
            args.push(Box::new(after.created_at_ms));
            args.push(Box::new(after.id.clone()));
            filter.push_str(" AND (t.created_at, t.id) > ($2, $3)");
        }
        args.push(Box::new(page.fetch()));
        filter.push_str(&format!(
            " ORDER BY t.created_at, t.id LIMIT ${}",
            args.len()
        ));
        self.page(&template_select(&filter), args, &page, sized_template)
            .await
    }

    /// A page of one template's versions, oldest first; not found when it is not live.
    pub(super) async fn version_page(
        &self,
        organization: String,
        id: String,
        page: PageRequest,
    ) -> Result<Paged<TemplateRecord>, StoreError> {
        let after = page
            .after
            .as_ref()
            .map_or(0, |key| sql_version(key.version));
        let args: Args = vec![
            Box::new(id.clone()),
            Box::new(organization.clone()),
            Box::new(after),
            Box::new(page.fetch()),
        ];
        let sql = template_select(
            "t.id = $1 AND t.org = $2 AND v.version > $3 ORDER BY v.version LIMIT $4",
        );
        let versions = self.page(&sql, args, &page, sized_template).await?;
        if versions.items.is_empty() {
            let live = self
                .row(
                    "SELECT 1 FROM templates WHERE id = $1 AND org = $2 AND deleted_at IS NULL",
                    &[&id, &organization],
                )
                .await?;
            if live.is_none() {
                return Err(StoreError::NotFound);
            }
        }
        Ok(versions)
    }

    /// A page of the organization's jobs matching `filter`, oldest first (each job's versions
    /// in order), with the graph `form` asks for.
    pub(super) async fn job_page(
        &self,
        organization: String,
        filter: JobFilter,
        form: GraphForm,
        page: PageRequest,
    ) -> Result<Paged<JobRecord>, StoreError> {
        let mut sql = format!(
            "SELECT {JOB_COLUMNS}, {} FROM jobs j JOIN job_versions v ON v.job_id = j.id \
             WHERE j.org = $1 AND j.deleted_at IS NULL",
            form.column()
        );
        let mut args: Args = vec![Box::new(organization)];
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
                args.push(Box::new(values));
                sql.push_str(&format!(" AND {column} = ANY(${})", args.len()));
            }
        }
        if let Some(name) = filter.name {
            args.push(Box::new(name));
            sql.push_str(&format!(" AND v.name = ${}", args.len()));
        }
        if let Some(since) = filter.since_ms {
            args.push(Box::new(since));
            sql.push_str(&format!(" AND v.created_at >= ${}", args.len()));
        }
        if let Some(after) = &page.after {
            args.push(Box::new(after.created_at_ms));
            args.push(Box::new(after.id.clone()));
            args.push(Box::new(sql_version(after.version)));
            let n = args.len();
            sql.push_str(&format!(
                " AND (j.created_at, j.id, v.version) > (${}, ${}, ${n})",
                n - 2,
                n - 1
            ));
        }
        args.push(Box::new(page.fetch()));
        sql.push_str(&format!(
            " ORDER BY j.created_at, j.id, v.version LIMIT ${}",
            args.len()
        ));
        self.page(&sql, args, &page, sized_job).await
    }
}
