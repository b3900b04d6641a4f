//! Every statement of both stores and every row mapping, written once over [`Db`](super::sql::Db):
//! one module per family of tables. `store/methods.rs` binds each [`Store`](super::Store)
//! method to one operation here, on SQLite and on PostgreSQL.

pub(super) mod clients;
pub(super) mod datasets;
pub(super) mod events;
pub(super) mod jobs;
pub(super) mod people;
pub(super) mod runs;
pub(super) mod templates;

use super::StoreError;
use super::sql::{Db, Sql};

/// A stored version number (never negative: 0 if it were).
pub(super) fn version(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

/// A version number as stored.
pub(super) fn sql_version(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Stored JSON text read back as `T`; `what` names it in the error.
pub(super) fn json<T: serde::de::DeserializeOwned>(
    text: &str,
    what: &str,
) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Backend(format!("stored {what}: {e}")))
}

/// A value as the JSON text the stores keep.
pub(super) fn to_text<T: serde::Serialize>(value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|e| StoreError::Backend(e.to_string()))
}

static PING: Sql = Sql::new("SELECT 1");

/// Whether the database answers.
pub(super) async fn ping(db: &impl Db) -> Result<(), StoreError> {
    db.row(PING.text(db.dialect()), &[], |_| Ok(())).await?;
    Ok(())
}
