//! [`Db`] on a pooled PostgreSQL connection or a transaction on one. Statements are prepared
//! once per connection (the pool's statement cache); a page's rows are read from the server's
//! row stream one by one.

use bytes::BytesMut;
use deadpool_postgres::GenericClient;
use futures_util::TryStreamExt;
use tokio_postgres::error::SqlState;
use tokio_postgres::types::{IsNull, ToSql, Type, to_sql_checked};

use super::{Arg, Db, Dialect, RowRef};
use crate::store::{PageFill, PageRequest, Paged, StoreError};

/// A pooled connection (`deadpool_postgres::Client`) or a transaction on one, as a [`Db`].
pub(crate) struct PgDb<'c, C>(pub(crate) &'c C);

impl ToSql for Arg<'_> {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self {
            Arg::Int(n) => n.to_sql_checked(ty, out),
            Arg::OptInt(n) => n.to_sql_checked(ty, out),
            Arg::Text(text) => text.to_sql_checked(ty, out),
            Arg::OptText(text) => text.to_sql_checked(ty, out),
            Arg::Bytes(bytes) => bytes.to_sql_checked(ty, out),
            Arg::Texts(texts) => texts.to_sql_checked(ty, out),
        }
    }

    /// Every type: the value's own `to_sql_checked` checks it.
    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
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

fn params<'a>(args: &'a [Arg<'_>]) -> Vec<&'a (dyn ToSql + Sync)> {
    args.iter().map(|a| a as &(dyn ToSql + Sync)).collect()
}

impl<C: GenericClient> Db for PgDb<'_, C> {
    fn dialect(&self) -> Dialect {
        Dialect::Postgres
    }

    async fn execute(&self, sql: &str, args: &[Arg<'_>]) -> Result<u64, StoreError> {
        let statement = self.0.prepare_cached(sql).await?;
        Ok(self.0.execute(&statement, &params(args)).await?)
    }

    async fn execute_unique(&self, sql: &str, args: &[Arg<'_>]) -> Result<Option<u64>, StoreError> {
        let statement = self.0.prepare_cached(sql).await?;
        match self.0.execute(&statement, &params(args)).await {
            Ok(n) => Ok(Some(n)),
            Err(e) if e.code() == Some(&SqlState::UNIQUE_VIOLATION) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    async fn row<T>(
        &self,
        sql: &str,
        args: &[Arg<'_>],
        map: impl FnOnce(&RowRef<'_>) -> Result<T, StoreError> + Send,
    ) -> Result<Option<T>, StoreError> {
        let statement = self.0.prepare_cached(sql).await?;
        let row = self.0.query_opt(&statement, &params(args)).await?;
        row.map(|row| map(&RowRef::Postgres(&row))).transpose()
    }

    async fn rows<T>(
        &self,
        sql: &str,
        args: &[Arg<'_>],
        mut map: impl FnMut(&RowRef<'_>) -> Result<T, StoreError> + Send,
    ) -> Result<Vec<T>, StoreError> {
        let statement = self.0.prepare_cached(sql).await?;
        let rows = self.0.query(&statement, &params(args)).await?;
        rows.iter().map(|row| map(&RowRef::Postgres(row))).collect()
    }

    async fn page<T>(
        &self,
        sql: &str,
        args: &[Arg<'_>],
        page: &PageRequest,
        mut map: impl FnMut(&RowRef<'_>) -> Result<(T, usize), StoreError> + Send,
    ) -> Result<Paged<T>, StoreError> {
        let statement = self.0.prepare_cached(sql).await?;
        let rows = self.0.query_raw(&statement, params(args)).await?;
        let mut rows = std::pin::pin!(rows);
        let mut fill = PageFill::new(page);
        while let Some(row) = rows.try_next().await? {
            if !fill.push(map(&RowRef::Postgres(&row))?) {
                break;
            }
        }
        Ok(fill.done())
    }
}
