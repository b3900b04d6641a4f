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

mod schema;

use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, PoolError, RecyclingMethod, Runtime};
use tokio_postgres::NoTls;

use super::StoreError;

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
        super::redact_url(&self.url)
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

/// The PostgreSQL [`Store`](super::Store).
#[derive(Clone)]
pub struct PostgresStore {
    pub(super) pool: Pool,
}

impl std::fmt::Debug for PostgresStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PostgresStore")
            .field("status", &self.pool.status())
            .finish_non_exhaustive()
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
