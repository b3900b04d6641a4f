//! Heartbeats of synchronous runs posted to a replica that does not hold the run (SQLite).

use rusqlite::{Connection, OptionalExtension, Transaction, params};

use super::super::StoreError;
use crate::ids::now_ms;

/// Upserts `token`'s renewal time (now) and drops renewals older than `keep_ms`.
pub(super) fn renew(
    tx: &Transaction<'_>,
    organization: &str,
    token: &str,
    keep_ms: i64,
) -> Result<(), StoreError> {
    let now = now_ms();
    tx.prepare_cached(
        "INSERT INTO sync_heartbeats (token, organization, renewed_at) VALUES (?1, ?2, ?3) \
         ON CONFLICT (token) DO UPDATE SET renewed_at = excluded.renewed_at \
         WHERE sync_heartbeats.organization = excluded.organization",
    )?
    .execute(params![token, organization, now])?;
    tx.prepare_cached("DELETE FROM sync_heartbeats WHERE renewed_at < ?1")?
        .execute(params![now.saturating_sub(keep_ms)])?;
    Ok(())
}

/// When `organization` last renewed `token`.
pub(super) fn renewed_at(
    db: &Connection,
    organization: &str,
    token: &str,
) -> Result<Option<i64>, StoreError> {
    Ok(db
        .prepare_cached(
            "SELECT renewed_at FROM sync_heartbeats WHERE token = ?1 AND organization = ?2",
        )?
        .query_row(params![token, organization], |row| row.get(0))
        .optional()?)
}
