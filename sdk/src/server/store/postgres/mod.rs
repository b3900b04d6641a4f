//! [`PostgresStore`]: the [`Store`] on a PostgreSQL database that several replicas of
//! `jobgraph serve` share.
//!
//! Connections come from a `deadpool-postgres` pool (size and timeouts in
//! [`PostgresOptions`]); statements are prepared once per connection. New versions are
//! numbered under a row lock (`SELECT … FOR UPDATE` of the template's or job's row), so
//! concurrent updates through any number of replicas get consecutive numbers, and the
//! `(id, version)` primary key makes a duplicate impossible. A lost or refused connection is
//! [`StoreError::Unavailable`] (a 503); the pool drops broken connections and makes new ones,
//! so the service recovers when the database is back, without a restart.

mod rows;
mod schema;

use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, PoolError, RecyclingMethod, Runtime};
use serde_json::Value;
use tokio_postgres::NoTls;
use tokio_postgres::error::SqlState;
use tokio_postgres::types::ToSql;

use super::{
    ClientRecord, GraphForm, JobFields, JobFilter, JobRecord, NewTemplateVersion, Store,
    StoreError, StoreFuture, TemplateRecord, TokenRecord,
};
use crate::server::ids::now_ms;
use rows::{JOB_COLUMNS, TEMPLATE_COLUMNS, job_record, template_record, version};

/// How to reach the database and how many connections to keep.
#[derive(Clone)]
pub struct PostgresOptions {
    /// `postgres://user:password@host:port/database` (libpq URL or key=value form). Its
    /// password is never printed: `Debug` and [`PostgresOptions::display_url`] hide it.
    pub url: String,
    /// Most connections this replica opens. Default 16.
    pub pool_size: usize,
    /// How long a connection attempt, and a request's wait for a free connection, may take
    /// before the request fails with 503. Default 5 s.
    pub timeout: Duration,
}

impl PostgresOptions {
    /// Options for `url` with the default pool size and timeout.
    pub fn new(url: impl Into<String>) -> Self {
        PostgresOptions {
            url: url.into(),
            pool_size: 16,
            timeout: Duration::from_secs(5),
        }
    }

    /// The URL with its password replaced by `***`, for banners and logs.
    pub fn display_url(&self) -> String {
        crate::server::config::redact_url(&self.url)
    }
}

impl std::fmt::Debug for PostgresOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PostgresOptions")
            .field("url", &self.display_url())
            .field("pool_size", &self.pool_size)
            .field("timeout", &self.timeout)
            .finish()
    }
}

/// The PostgreSQL [`Store`].
#[derive(Clone)]
pub struct PostgresStore {
    pool: Pool,
}

impl std::fmt::Debug for PostgresStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PostgresStore")
            .field("status", &self.pool.status())
            .finish_non_exhaustive()
    }
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(error: tokio_postgres::Error) -> Self {
        let lost = error.is_closed()
            || error.code().is_some_and(|code| {
                code.code().starts_with("08")
                    || *code == SqlState::ADMIN_SHUTDOWN
                    || *code == SqlState::CRASH_SHUTDOWN
                    || *code == SqlState::CANNOT_CONNECT_NOW
            })
            || std::error::Error::source(&error).is_some_and(|s| s.is::<std::io::Error>());
        if lost {
            StoreError::Unavailable(error.to_string())
        } else {
            StoreError::Backend(error.to_string())
        }
    }
}

impl From<PoolError> for StoreError {
    fn from(error: PoolError) -> Self {
        match error {
            PoolError::Backend(e) => e.into(),
            PoolError::Timeout(_) | PoolError::Closed => StoreError::Unavailable(format!(
                "no database connection: {error} (the pool's timeout is `databaseTimeoutMs`)"
            )),
            other => StoreError::Backend(other.to_string()),
        }
    }
}

impl PostgresStore {
    /// Connects (waiting up to the timeout for the first connection) and applies the pending
    /// migrations under an advisory lock.
    pub async fn connect(options: &PostgresOptions) -> Result<Self, StoreError> {
        let mut config: tokio_postgres::Config = options.url.parse().map_err(|e| {
            StoreError::Backend(format!(
                "invalid database URL {}: {e} (expected postgres://user:password@host:port/database)",
                options.display_url()
            ))
        })?;
        config.connect_timeout(options.timeout);
        if config.get_application_name().is_none() {
            config.application_name("jobgraph serve");
        }
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(options.pool_size.max(1))
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(options.timeout))
            .create_timeout(Some(options.timeout))
            .recycle_timeout(Some(options.timeout))
            .build()
            .map_err(|e| StoreError::Backend(format!("cannot build the connection pool: {e}")))?;
        let mut client = pool.get().await?;
        schema::migrate(&mut client).await?;
        drop(client);
        Ok(PostgresStore { pool })
    }
}

/// Boxes a future as a [`StoreFuture`].
fn run<'a, T>(
    future: impl std::future::Future<Output = Result<T, StoreError>> + Send + 'a,
) -> StoreFuture<'a, T> {
    Box::pin(future)
}

impl Store for PostgresStore {
    fn kind(&self) -> &'static str {
        "postgres"
    }

    fn ping(&self) -> StoreFuture<'_, ()> {
        run(async move {
            let db = self.pool.get().await?;
            db.simple_query("SELECT 1").await?;
            Ok(())
        })
    }

    fn put_client(&self, client: ClientRecord) -> StoreFuture<'_, ()> {
        run(async move {
            let db = self.pool.get().await?;
            let statement = db
                .prepare_cached(
                    "INSERT INTO clients (client_id, org, secret_hash, created_at) VALUES ($1, $2, $3, $4) \
                     ON CONFLICT (client_id) DO UPDATE SET org = excluded.org, secret_hash = excluded.secret_hash",
                )
                .await?;
            db.execute(
                &statement,
                &[
                    &client.client_id,
                    &client.organization,
                    &client.secret_hash,
                    &now_ms(),
                ],
            )
            .await?;
            Ok(())
        })
    }

    fn client(&self, client_id: String) -> StoreFuture<'_, Option<ClientRecord>> {
        run(async move {
            let db = self.pool.get().await?;
            let statement = db
                .prepare_cached(
                    "SELECT client_id, org, secret_hash FROM clients WHERE client_id = $1",
                )
                .await?;
            let row = db.query_opt(&statement, &[&client_id]).await?;
            row.map(|row| {
                Ok(ClientRecord {
                    client_id: row.try_get(0)?,
                    organization: row.try_get(1)?,
                    secret_hash: row.try_get(2)?,
                })
            })
            .transpose()
        })
    }

    fn client_count(&self) -> StoreFuture<'_, u64> {
        run(async move {
            let db = self.pool.get().await?;
            let row = db.query_one("SELECT COUNT(*) FROM clients", &[]).await?;
            Ok(version(row.try_get(0)?))
        })
    }

    fn put_token(&self, token: TokenRecord) -> StoreFuture<'_, ()> {
        run(async move {
            let mut db = self.pool.get().await?;
            let tx = db.transaction().await?;
            // Tokens expired for a day are of no use to anyone.
            let purge = tx
                .prepare_cached("DELETE FROM tokens WHERE expires_at < $1")
                .await?;
            tx.execute(&purge, &[&(now_ms() - 86_400_000)]).await?;
            let insert = tx
                .prepare_cached(
                    "INSERT INTO tokens (token_hash, client_id, org, expires_at) VALUES ($1, $2, $3, $4)",
                )
                .await?;
            tx.execute(
                &insert,
                &[
                    &&token.token_hash[..],
                    &token.client_id,
                    &token.organization,
                    &token.expires_at_ms,
                ],
            )
            .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn token(&self, token_hash: [u8; 32]) -> StoreFuture<'_, Option<TokenRecord>> {
        run(async move {
            let db = self.pool.get().await?;
            let statement = db
                .prepare_cached(
                    "SELECT client_id, org, expires_at FROM tokens WHERE token_hash = $1",
                )
                .await?;
            let row = db.query_opt(&statement, &[&&token_hash[..]]).await?;
            row.map(|row| {
                Ok(TokenRecord {
                    token_hash,
                    client_id: row.try_get(0)?,
                    organization: row.try_get(1)?,
                    expires_at_ms: row.try_get(2)?,
                })
            })
            .transpose()
        })
    }

    fn create_template(
        &self,
        id: String,
        new: NewTemplateVersion,
    ) -> StoreFuture<'_, TemplateRecord> {
        run(async move {
            let mut db = self.pool.get().await?;
            let tx = db.transaction().await?;
            let now = now_ms();
            let insert = tx
                .prepare_cached(
                    "INSERT INTO templates (id, org, latest_version, created_at) VALUES ($1, $2, 1, $3)",
                )
                .await?;
            tx.execute(&insert, &[&id, &new.organization, &now]).await?;
            rows::insert_template_version(&tx, &id, 1, &new, now).await?;
            tx.commit().await?;
            Ok(TemplateRecord {
                id,
                organization: new.organization,
                version: 1,
                latest: true,
                created_at_ms: now,
                updated_at_ms: now,
                source_hash: new.source_hash,
                edited_by: new.edited_by,
                fields: new.fields,
            })
        })
    }

    fn append_template(
        &self,
        id: String,
        expected: Option<u64>,
        new: NewTemplateVersion,
    ) -> StoreFuture<'_, TemplateRecord> {
        run(async move {
            let mut db = self.pool.get().await?;
            let tx = db.transaction().await?;
            // The row lock orders concurrent appends, whichever replica they come through.
            let lock = tx
                .prepare_cached(
                    "SELECT latest_version, created_at FROM templates \
                     WHERE id = $1 AND org = $2 AND deleted_at IS NULL FOR UPDATE",
                )
                .await?;
            let row = tx
                .query_opt(&lock, &[&id, &new.organization])
                .await?
                .ok_or(StoreError::NotFound)?;
            let current = version(row.try_get(0)?);
            let created_at: i64 = row.try_get(1)?;
            let next = current + 1;
            if expected.is_some_and(|v| v != next) {
                return Err(StoreError::Conflict { current });
            }
            let now = now_ms();
            rows::insert_template_version(&tx, &id, next, &new, now).await?;
            let bump = tx
                .prepare_cached("UPDATE templates SET latest_version = $1 WHERE id = $2")
                .await?;
            tx.execute(&bump, &[&rows::sql_version(next), &id]).await?;
            tx.commit().await?;
            Ok(TemplateRecord {
                id,
                organization: new.organization,
                version: next,
                latest: true,
                created_at_ms: created_at,
                updated_at_ms: now,
                source_hash: new.source_hash,
                edited_by: new.edited_by,
                fields: new.fields,
            })
        })
    }

    fn template(
        &self,
        organization: String,
        id: String,
        version: Option<u64>,
    ) -> StoreFuture<'_, TemplateRecord> {
        run(async move {
            let db = self.pool.get().await?;
            let statement = db
                .prepare_cached(&format!(
                    "SELECT {TEMPLATE_COLUMNS} FROM templates t JOIN template_versions v ON v.template_id = t.id \
                     WHERE t.deleted_at IS NULL AND t.id = $1 AND t.org = $2 \
                     AND v.version = COALESCE($3::BIGINT, t.latest_version)"
                ))
                .await?;
            let row = db
                .query_opt(
                    &statement,
                    &[&id, &organization, &version.map(rows::sql_version)],
                )
                .await?
                .ok_or(StoreError::NotFound)?;
            template_record(&row)
        })
    }

    fn template_versions(
        &self,
        organization: String,
        id: String,
    ) -> StoreFuture<'_, Vec<TemplateRecord>> {
        run(async move {
            let db = self.pool.get().await?;
            let statement = db
                .prepare_cached(&format!(
                    "SELECT {TEMPLATE_COLUMNS} FROM templates t JOIN template_versions v ON v.template_id = t.id \
                     WHERE t.deleted_at IS NULL AND t.id = $1 AND t.org = $2 ORDER BY v.version"
                ))
                .await?;
            let versions = db
                .query(&statement, &[&id, &organization])
                .await?
                .iter()
                .map(template_record)
                .collect::<Result<Vec<_>, _>>()?;
            if versions.is_empty() {
                return Err(StoreError::NotFound);
            }
            Ok(versions)
        })
    }

    fn list_templates(&self, organization: String) -> StoreFuture<'_, Vec<TemplateRecord>> {
        run(async move {
            let db = self.pool.get().await?;
            let statement = db
                .prepare_cached(&format!(
                    "SELECT {TEMPLATE_COLUMNS} FROM templates t JOIN template_versions v ON v.template_id = t.id \
                     WHERE t.deleted_at IS NULL AND t.org = $1 AND v.version = t.latest_version \
                     ORDER BY t.created_at, t.id"
                ))
                .await?;
            db.query(&statement, &[&organization])
                .await?
                .iter()
                .map(template_record)
                .collect()
        })
    }

    fn delete_template(&self, organization: String, id: String) -> StoreFuture<'_, ()> {
        run(async move {
            let db = self.pool.get().await?;
            let statement = db
                .prepare_cached(
                    "UPDATE templates SET deleted_at = $1 WHERE id = $2 AND org = $3 AND deleted_at IS NULL",
                )
                .await?;
            let n = db
                .execute(&statement, &[&now_ms(), &id, &organization])
                .await?;
            if n == 0 {
                Err(StoreError::NotFound)
            } else {
                Ok(())
            }
        })
    }

    fn deleted_templates(
        &self,
        organization: String,
        ids: Vec<String>,
    ) -> StoreFuture<'_, Vec<String>> {
        run(async move {
            let db = self.pool.get().await?;
            let statement = db
                .prepare_cached(
                    "SELECT id FROM templates WHERE org = $1 AND id = ANY($2) AND deleted_at IS NOT NULL",
                )
                .await?;
            let deleted = db
                .query(&statement, &[&organization, &ids])
                .await?
                .iter()
                .map(|row| row.try_get::<_, String>(0))
                .collect::<Result<std::collections::HashSet<_>, _>>()?;
            Ok(ids.into_iter().filter(|id| deleted.contains(id)).collect())
        })
    }

    fn create_job(
        &self,
        organization: String,
        id: String,
        fields: JobFields,
    ) -> StoreFuture<'_, JobRecord> {
        run(async move {
            let mut db = self.pool.get().await?;
            let tx = db.transaction().await?;
            let now = now_ms();
            let insert = tx
                .prepare_cached(
                    "INSERT INTO jobs (id, org, latest_version, created_at) VALUES ($1, $2, 1, $3)",
                )
                .await?;
            tx.execute(&insert, &[&id, &organization, &now]).await?;
            rows::insert_job_version(&tx, &id, 1, &fields, now).await?;
            tx.commit().await?;
            JobRecord::written(id, organization, 1, (now, now), fields)
        })
    }

    fn update_job(
        &self,
        organization: String,
        id: String,
        from_version: Option<u64>,
        fields: JobFields,
    ) -> StoreFuture<'_, JobRecord> {
        run(async move {
            let mut db = self.pool.get().await?;
            let tx = db.transaction().await?;
            let lock = tx
                .prepare_cached(
                    "SELECT latest_version, created_at FROM jobs \
                     WHERE id = $1 AND org = $2 AND deleted_at IS NULL FOR UPDATE",
                )
                .await?;
            let row = tx
                .query_opt(&lock, &[&id, &organization])
                .await?
                .ok_or(StoreError::NotFound)?;
            let current = version(row.try_get(0)?);
            let created_at: i64 = row.try_get(1)?;
            if from_version.is_some_and(|v| v != current) {
                return Err(StoreError::Conflict { current });
            }
            let now = now_ms();
            rows::insert_job_version(&tx, &id, current + 1, &fields, now).await?;
            let bump = tx
                .prepare_cached("UPDATE jobs SET latest_version = $1 WHERE id = $2")
                .await?;
            tx.execute(&bump, &[&rows::sql_version(current + 1), &id])
                .await?;
            tx.commit().await?;
            JobRecord::written(id, organization, current + 1, (created_at, now), fields)
        })
    }

    fn job(
        &self,
        organization: String,
        id: String,
        version: Option<u64>,
        form: GraphForm,
    ) -> StoreFuture<'_, JobRecord> {
        run(async move {
            let db = self.pool.get().await?;
            let statement = db
                .prepare_cached(&format!(
                    "SELECT {JOB_COLUMNS}, {} FROM jobs j JOIN job_versions v ON v.job_id = j.id \
                     WHERE j.id = $1 AND j.org = $2 AND j.deleted_at IS NULL \
                     AND v.version = COALESCE($3::BIGINT, j.latest_version)",
                    form.column()
                ))
                .await?;
            let row = db
                .query_opt(
                    &statement,
                    &[&id, &organization, &version.map(rows::sql_version)],
                )
                .await?
                .ok_or(StoreError::NotFound)?;
            job_record(&row)
        })
    }

    fn list_jobs(
        &self,
        organization: String,
        filter: JobFilter,
        form: GraphForm,
    ) -> StoreFuture<'_, Vec<JobRecord>> {
        run(async move {
            let (sql, args) = rows::job_listing(organization, filter, form);
            let db = self.pool.get().await?;
            let statement = db.prepare_cached(&sql).await?;
            let refs: Vec<&(dyn ToSql + Sync)> = args
                .iter()
                .map(|a| a.as_ref() as &(dyn ToSql + Sync))
                .collect();
            db.query(&statement, &refs)
                .await?
                .iter()
                .map(job_record)
                .collect()
        })
    }

    fn delete_job(&self, organization: String, id: String) -> StoreFuture<'_, ()> {
        run(async move {
            let db = self.pool.get().await?;
            let statement = db
                .prepare_cached(
                    "UPDATE jobs SET deleted_at = $1 WHERE id = $2 AND org = $3 AND deleted_at IS NULL",
                )
                .await?;
            let n = db
                .execute(&statement, &[&now_ms(), &id, &organization])
                .await?;
            if n == 0 {
                Err(StoreError::NotFound)
            } else {
                Ok(())
            }
        })
    }

    fn put_trigger(&self, id: String, payload: Value) -> StoreFuture<'_, ()> {
        run(async move {
            let db = self.pool.get().await?;
            let statement = db
                .prepare_cached(
                    "INSERT INTO triggers (id, payload, received_at) VALUES ($1, $2, $3)",
                )
                .await?;
            db.execute(&statement, &[&id, &payload.to_string(), &now_ms()])
                .await?;
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_never_show_the_password() {
        let options = PostgresOptions::new("postgres://app:s3cret@db/jobgraph");
        assert!(!format!("{options:?}").contains("s3cret"));
        assert_eq!(options.display_url(), "postgres://app:***@db/jobgraph");
    }
}
