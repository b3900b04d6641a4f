//! Triggers on SQLite: each one stored, its organization's oldest pruned.

use rusqlite::{Transaction, params};

use super::super::{StoreError, TriggerRecord};
use crate::ids::now_ms;

/// Stores `trigger` and keeps its organization's newest `keep` (at least one).
pub(super) fn put(
    tx: &Transaction<'_>,
    trigger: &TriggerRecord,
    keep: usize,
) -> Result<(), StoreError> {
    let keep = i64::try_from(keep.max(1)).unwrap_or(i64::MAX);
    tx.prepare_cached(
        "INSERT INTO triggers (id, payload, received_at, org, job_id) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![
        trigger.id,
        trigger.payload.to_string(),
        now_ms(),
        trigger.organization,
        trigger.job_id
    ])?;
    // Everything older than the organization's `keep`-th newest trigger goes.
    tx.prepare_cached(
        "DELETE FROM triggers WHERE org = ?1 AND (received_at, id) < \
         (SELECT received_at, id FROM triggers WHERE org = ?1 \
          ORDER BY received_at DESC, id DESC LIMIT 1 OFFSET ?2)",
    )?
    .execute(params![trigger.organization, keep - 1])?;
    Ok(())
}
