//! The SQL layer under both stores: statements written once, run on SQLite or PostgreSQL.
//!
//! It knows no table. A statement is one text with numbered marks `?1`, `?2`, … (SQLite's own
//! form; `$1`, `$2`, … on PostgreSQL) and a few tokens for what the two dialects spell
//! differently (see [`render`]); [`Sql`] renders a static text once per dialect, [`SqlBuf`]
//! builds one at run time (filters, lists). Values are [`Arg`]s, rows are read through
//! [`RowRef::get`], and a [`Db`] runs statements on a connection or inside a transaction.
//!
//! The operations in `store/ops/` are `async fn`s over [`Db`]: PostgreSQL awaits the network,
//! and SQLite's [`Db`] finishes every statement before it returns, so an operation on SQLite
//! completes on its first poll ([`run_now`]), on the thread that holds the connection.
//!
//! ```ignore
//! static BY_ID: Sql = Sql::new("SELECT org FROM jobs WHERE id = ?1 AND deleted_at IS NULL");
//! let org: Option<String> = db.row(BY_ID.text(db.dialect()), &[id.into()], |r| r.get(0)).await?;
//! ```

use std::future::Future;
use std::sync::OnceLock;

use futures_util::FutureExt;

use super::{PageRequest, Paged, StoreError};

#[cfg(feature = "postgres")]
pub(super) mod postgres;
pub(super) mod sqlite;

/// Which database a statement is rendered for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// SQLite (rusqlite).
    Sqlite = 0,
    /// PostgreSQL (tokio-postgres; rendered without the `postgres` feature too, for tests).
    #[cfg_attr(not(feature = "postgres"), allow(dead_code))]
    Postgres = 1,
}

/// Renders a statement's text for `dialect`: `?N` marks become `$N` on PostgreSQL; the tokens
/// `{for_update}` (a row lock: ` FOR UPDATE` on PostgreSQL, nothing on SQLite, whose writer
/// holds the database in `BEGIN IMMEDIATE`) and `{bytes}` (text compared byte by byte: nothing on
/// SQLite, whose default collation does, ` COLLATE "C"` on PostgreSQL whatever its locale) are
/// replaced, and so is `{blob}` in DDL (`BLOB` / `BYTEA`); `{shard_statuses}` is the
/// statuses of the run shards `s`, joined by the record separator (U+001E). Statements hold no string literal
/// with `?` or `{` in it.
pub(crate) fn render(text: &str, dialect: Dialect) -> String {
    let (for_update, bytes, blob, statuses) = match dialect {
        Dialect::Sqlite => ("", "", "BLOB", "group_concat(s.status, char(30))"),
        Dialect::Postgres => (
            " FOR UPDATE",
            r#" COLLATE "C""#,
            "BYTEA",
            "string_agg(s.status, chr(30) ORDER BY s.shard)",
        ),
    };
    let text = text
        .replace("{shard_statuses}", statuses)
        .replace("{for_update}", for_update)
        .replace("{bytes}", bytes)
        .replace("{blob}", blob);
    match dialect {
        Dialect::Sqlite => text,
        Dialect::Postgres => text.replace('?', "$"),
    }
}

/// A statement written once, rendered once per dialect on first use.
pub(crate) struct Sql {
    text: &'static str,
    rendered: [OnceLock<String>; 2],
}

impl Sql {
    /// A statement with `?N` marks and the tokens of [`render`].
    pub(crate) const fn new(text: &'static str) -> Sql {
        Sql {
            text,
            rendered: [OnceLock::new(), OnceLock::new()],
        }
    }

    /// Its text for `dialect`.
    pub(crate) fn text(&self, dialect: Dialect) -> &str {
        self.rendered[dialect as usize].get_or_init(|| render(self.text, dialect))
    }
}

/// A statement built at run time: text and the values of its marks, numbered as they are
/// pushed.
pub(crate) struct SqlBuf<'a> {
    dialect: Dialect,
    text: String,
    args: Vec<Arg<'a>>,
}

impl<'a> SqlBuf<'a> {
    /// A statement starting with `text` (which holds no mark; tokens of [`render`] are fine).
    pub(crate) fn new(dialect: Dialect, text: impl Into<String>) -> Self {
        SqlBuf {
            dialect,
            text: text.into(),
            args: Vec::new(),
        }
    }

    /// Appends `text` as it is (no marks in it).
    pub(crate) fn push(&mut self, text: &str) -> &mut Self {
        self.text.push_str(text);
        self
    }

    /// Appends a mark for `value`.
    pub(crate) fn bind(&mut self, value: impl Into<Arg<'a>>) -> &mut Self {
        self.args.push(value.into());
        self.text.push('?');
        self.text.push_str(&self.args.len().to_string());
        self
    }

    /// Appends `column` is one of `values`: `column IN (?4, ?5)` on SQLite, `column = ANY($4)`
    /// (one array) on PostgreSQL.
    pub(crate) fn in_list(&mut self, column: &str, values: &'a [String]) -> &mut Self {
        self.push(column);
        match self.dialect {
            Dialect::Sqlite => {
                self.push(" IN (");
                for (i, value) in values.iter().enumerate() {
                    if i > 0 {
                        self.push(", ");
                    }
                    self.bind(value.as_str());
                }
                self.push(")")
            }
            Dialect::Postgres => self.push(" = ANY(").bind(Arg::Texts(values)).push(")"),
        }
    }

    /// Appends a keyset page's end: ` AND (keys) > (?a, ?b, …)` when `after` holds the sort key
    /// the previous page ended with, then ` ORDER BY keys LIMIT ?n` with `fetch` (the page's
    /// size and one row more, to know whether more follow).
    pub(crate) fn page_by(
        &mut self,
        keys: &str,
        after: Option<&[Arg<'a>]>,
        fetch: i64,
    ) -> &mut Self {
        if let Some(after) = after {
            self.push(" AND (").push(keys).push(") > (");
            for (i, value) in after.iter().enumerate() {
                if i > 0 {
                    self.push(", ");
                }
                self.bind(*value);
            }
            self.push(")");
        }
        self.push(" ORDER BY ")
            .push(keys)
            .push(" LIMIT ")
            .bind(fetch)
    }

    /// The text, rendered for the dialect, and the values.
    pub(crate) fn finish(self) -> (String, Vec<Arg<'a>>) {
        (render(&self.text, self.dialect), self.args)
    }
}

/// A value bound to a mark.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Arg<'a> {
    /// An integer (`INTEGER` / `BIGINT`).
    Int(i64),
    /// An integer or NULL.
    OptInt(Option<i64>),
    /// Text.
    Text(&'a str),
    /// Text or NULL.
    OptText(Option<&'a str>),
    /// Bytes (`BLOB` / `BYTEA`).
    Bytes(&'a [u8]),
    /// A text array (PostgreSQL only: [`SqlBuf::in_list`] expands it on SQLite).
    #[cfg_attr(not(feature = "postgres"), allow(dead_code))]
    Texts(&'a [String]),
}

impl From<i64> for Arg<'_> {
    fn from(value: i64) -> Self {
        Arg::Int(value)
    }
}

impl From<Option<i64>> for Arg<'_> {
    fn from(value: Option<i64>) -> Self {
        Arg::OptInt(value)
    }
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(value: &'a str) -> Self {
        Arg::Text(value)
    }
}

impl<'a> From<Option<&'a str>> for Arg<'a> {
    fn from(value: Option<&'a str>) -> Self {
        Arg::OptText(value)
    }
}

impl<'a> From<&'a String> for Arg<'a> {
    fn from(value: &'a String) -> Self {
        Arg::Text(value)
    }
}

impl<'a> From<&'a [u8]> for Arg<'a> {
    fn from(value: &'a [u8]) -> Self {
        Arg::Bytes(value)
    }
}

/// A value a column can be read as, from either database.
#[cfg(feature = "postgres")]
pub(crate) trait Column:
    Sized + rusqlite::types::FromSql + for<'r> tokio_postgres::types::FromSql<'r>
{
}
#[cfg(feature = "postgres")]
impl<T: rusqlite::types::FromSql + for<'r> tokio_postgres::types::FromSql<'r>> Column for T {}

/// A value a column can be read as, from either database.
#[cfg(not(feature = "postgres"))]
pub(crate) trait Column: Sized + rusqlite::types::FromSql {}
#[cfg(not(feature = "postgres"))]
impl<T: rusqlite::types::FromSql> Column for T {}

/// A row of either database, its columns read by position.
pub(crate) enum RowRef<'r> {
    /// A SQLite row.
    Sqlite(&'r rusqlite::Row<'r>),
    /// A PostgreSQL row.
    #[cfg(feature = "postgres")]
    Postgres(&'r tokio_postgres::Row),
}

impl RowRef<'_> {
    /// Column `i` (0-based) as a `T`.
    pub(crate) fn get<T: Column>(&self, i: usize) -> Result<T, StoreError> {
        match self {
            RowRef::Sqlite(row) => Ok(row.get(i)?),
            #[cfg(feature = "postgres")]
            RowRef::Postgres(row) => Ok(row.try_get(i)?),
        }
    }
}

/// Where statements run: a connection, or a transaction on one.
///
/// Every method takes the statement's rendered text (see [`Sql::text`], [`SqlBuf::finish`]).
pub(crate) trait Db {
    /// The database's dialect.
    fn dialect(&self) -> Dialect;

    /// Runs a statement: how many rows it changed.
    fn execute(&self, sql: &str, args: &[Arg<'_>])
    -> impl Future<Output = Result<u64, StoreError>>;

    /// Runs a statement that may break a unique key: how many rows it changed, or `None` when
    /// a unique key was taken (nothing written).
    fn execute_unique(
        &self,
        sql: &str,
        args: &[Arg<'_>],
    ) -> impl Future<Output = Result<Option<u64>, StoreError>>;

    /// The first row of a query, mapped, if there is one.
    fn row<T>(
        &self,
        sql: &str,
        args: &[Arg<'_>],
        map: impl FnOnce(&RowRef<'_>) -> Result<T, StoreError> + Send,
    ) -> impl Future<Output = Result<Option<T>, StoreError>>;

    /// Every row of a query, mapped.
    fn rows<T>(
        &self,
        sql: &str,
        args: &[Arg<'_>],
        map: impl FnMut(&RowRef<'_>) -> Result<T, StoreError> + Send,
    ) -> impl Future<Output = Result<Vec<T>, StoreError>>;

    /// One page of a query's rows, each mapped to an item and its stored size: rows are read
    /// one by one, and none past the one that shows more follow.
    fn page<T>(
        &self,
        sql: &str,
        args: &[Arg<'_>],
        page: &PageRequest,
        map: impl FnMut(&RowRef<'_>) -> Result<(T, usize), StoreError> + Send,
    ) -> impl Future<Output = Result<Paged<T>, StoreError>>;
}

/// The outcome of an operation on SQLite, whose statements never wait: the future completes on
/// its first poll. An operation that awaited something else would be a bug; it fails instead
/// of blocking the thread.
pub(crate) fn run_now<T>(
    operation: impl Future<Output = Result<T, StoreError>>,
) -> Result<T, StoreError> {
    operation.now_or_never().unwrap_or_else(|| {
        Err(StoreError::Backend(
            "a SQLite store operation awaited something other than SQLite (a bug)".into(),
        ))
    })
}

/// A tombstoning or other `UPDATE` that must change a row: not found when it changed none.
pub(crate) fn changed(rows: u64) -> Result<(), StoreError> {
    if rows == 0 {
        Err(StoreError::NotFound)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_and_tokens_render_per_dialect() {
        let text = "SELECT a FROM t WHERE id = ?1 AND p > ?2{bytes} ORDER BY p{bytes}{for_update}";
        assert_eq!(
            render(text, Dialect::Sqlite),
            "SELECT a FROM t WHERE id = ?1 AND p > ?2 ORDER BY p"
        );
        assert_eq!(
            render(text, Dialect::Postgres),
            r#"SELECT a FROM t WHERE id = $1 AND p > $2 COLLATE "C" ORDER BY p COLLATE "C" FOR UPDATE"#
        );
    }

    #[test]
    fn built_statements_number_their_marks_and_spell_lists_per_dialect() {
        let states = vec!["RUNNING".to_owned(), "FAILED".to_owned()];
        for (dialect, expected) in [
            (
                Dialect::Sqlite,
                "SELECT 1 WHERE org = ?1 AND s IN (?2, ?3) AND (c, i) > (?4, ?5) ORDER BY c, i LIMIT ?6",
            ),
            (
                Dialect::Postgres,
                "SELECT 1 WHERE org = $1 AND s = ANY($2) AND (c, i) > ($3, $4) ORDER BY c, i LIMIT $5",
            ),
        ] {
            let mut sql = SqlBuf::new(dialect, "SELECT 1 WHERE org = ");
            sql.bind("acme").push(" AND ").in_list("s", &states);
            sql.page_by("c, i", Some(&["x".into(), 2.into()]), 10);
            let (text, args) = sql.finish();
            assert_eq!(text, expected);
            let marks = text.matches(['?', '$']).count();
            assert_eq!(marks, args.len(), "one value per mark in {text}");
        }
    }
}
