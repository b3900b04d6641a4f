//! [`Db`] on a SQLite connection (a reader, or the writer inside its `BEGIN IMMEDIATE`
//! transaction). Every statement is prepared through the connection's statement cache and
//! finishes before the method returns: the futures are ready at once.

use std::future::{Future, ready};

use rusqlite::types::{ToSqlOutput, Value, ValueRef};
use rusqlite::{Connection, ToSql};

use super::{Arg, Db, Dialect, RowRef};
use crate::store::{PageRequest, Paged, StoreError};

/// A SQLite connection as a [`Db`].
pub(crate) struct SqliteDb<'c>(pub(crate) &'c Connection);

impl ToSql for Arg<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match *self {
            Arg::Int(n) => ToSqlOutput::Owned(Value::Integer(n)),
            Arg::OptInt(Some(n)) => ToSqlOutput::Owned(Value::Integer(n)),
            Arg::OptInt(None) => ToSqlOutput::Owned(Value::Null),
            Arg::Text(text) | Arg::OptText(Some(text)) => {
                ToSqlOutput::Borrowed(ValueRef::Text(text.as_bytes()))
            }
            Arg::OptText(None) => ToSqlOutput::Owned(Value::Null),
            Arg::Bytes(bytes) => ToSqlOutput::Borrowed(ValueRef::Blob(bytes)),
            Arg::Texts(_) => {
                return Err(rusqlite::Error::ToSqlConversionFailure(
                    "a text array is bound on PostgreSQL only (SqlBuf::in_list expands it)".into(),
                ));
            }
        })
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(error: rusqlite::Error) -> Self {
        StoreError::Backend(error.to_string())
    }
}

/// Whether SQLite refused a write because a unique key (or primary key) was taken.
fn unique_violation(error: &rusqlite::Error) -> bool {
    error.sqlite_error().is_some_and(|e| {
        e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
            || e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
    })
}

impl SqliteDb<'_> {
    fn execute_now(&self, sql: &str, args: &[Arg<'_>]) -> rusqlite::Result<u64> {
        let changed = self
            .0
            .prepare_cached(sql)?
            .execute(rusqlite::params_from_iter(args))?;
        Ok(changed as u64)
    }

    fn rows_now(
        &self,
        sql: &str,
        args: &[Arg<'_>],
        mut each: impl FnMut(&RowRef<'_>) -> Result<bool, StoreError>,
    ) -> Result<(), StoreError> {
        let mut statement = self.0.prepare_cached(sql)?;
        let mut rows = statement.query(rusqlite::params_from_iter(args))?;
        while let Some(row) = rows.next()? {
            if !each(&RowRef::Sqlite(row))? {
                break;
            }
        }
        Ok(())
    }
}

impl Db for SqliteDb<'_> {
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }

    fn execute(
        &self,
        sql: &str,
        args: &[Arg<'_>],
    ) -> impl Future<Output = Result<u64, StoreError>> {
        ready(self.execute_now(sql, args).map_err(StoreError::from))
    }

    fn execute_unique(
        &self,
        sql: &str,
        args: &[Arg<'_>],
    ) -> impl Future<Output = Result<Option<u64>, StoreError>> {
        ready(match self.execute_now(sql, args) {
            Ok(n) => Ok(Some(n)),
            Err(e) if unique_violation(&e) => Ok(None),
            Err(e) => Err(e.into()),
        })
    }

    fn row<T>(
        &self,
        sql: &str,
        args: &[Arg<'_>],
        map: impl FnOnce(&RowRef<'_>) -> Result<T, StoreError> + Send,
    ) -> impl Future<Output = Result<Option<T>, StoreError>> {
        let mut map = Some(map);
        let mut out = None;
        let result = self.rows_now(sql, args, |row| {
            if let Some(map) = map.take() {
                out = Some(map(row)?);
            }
            Ok(false)
        });
        ready(result.map(|()| out))
    }

    fn rows<T>(
        &self,
        sql: &str,
        args: &[Arg<'_>],
        mut map: impl FnMut(&RowRef<'_>) -> Result<T, StoreError> + Send,
    ) -> impl Future<Output = Result<Vec<T>, StoreError>> {
        let mut out = Vec::new();
        let result = self.rows_now(sql, args, |row| {
            out.push(map(row)?);
            Ok(true)
        });
        ready(result.map(|()| out))
    }

    fn page<T>(
        &self,
        sql: &str,
        args: &[Arg<'_>],
        page: &PageRequest,
        mut map: impl FnMut(&RowRef<'_>) -> Result<(T, usize), StoreError> + Send,
    ) -> impl Future<Output = Result<Paged<T>, StoreError>> {
        let mut fill = crate::store::PageFill::new(page);
        let result = self.rows_now(sql, args, |row| Ok(fill.push(map(row)?)));
        ready(result.map(|()| fill.done()))
    }
}
