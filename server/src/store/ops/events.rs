//! What arrives beside the resources: triggers of jobs (`triggers`) and heartbeats of
//! synchronous runs posted to a replica that does not hold the run (`sync_heartbeats`).

use crate::ids::now_ms;
use crate::store::sql::{Db, Sql};
use crate::store::{StoreError, TriggerRecord};

static PUT_TRIGGER: Sql = Sql::new(
    "INSERT INTO triggers (id, payload, received_at, org, job_id) VALUES (?1, ?2, ?3, ?4, ?5)",
);
/// Everything older than the organization's `?2 + 1`-th newest trigger goes.
static PRUNE_TRIGGERS: Sql = Sql::new(
    "DELETE FROM triggers WHERE org = ?1 AND (received_at, id) < \
     (SELECT received_at, id FROM triggers WHERE org = ?1 \
      ORDER BY received_at DESC, id DESC LIMIT 1 OFFSET ?2)",
);
static RENEW: Sql = Sql::new(
    "INSERT INTO sync_heartbeats (token, organization, renewed_at) VALUES (?1, ?2, ?3) \
     ON CONFLICT (token) DO UPDATE SET renewed_at = excluded.renewed_at \
     WHERE sync_heartbeats.organization = excluded.organization",
);
static FORGET_HEARTBEATS: Sql = Sql::new("DELETE FROM sync_heartbeats WHERE renewed_at < ?1");
static RENEWED_AT: Sql =
    Sql::new("SELECT renewed_at FROM sync_heartbeats WHERE token = ?1 AND organization = ?2");

/// Stores `trigger` and keeps its organization's newest `keep` (at least one).
pub(crate) async fn put_trigger(
    db: &impl Db,
    trigger: TriggerRecord,
    keep: usize,
) -> Result<(), StoreError> {
    let d = db.dialect();
    let keep = i64::try_from(keep.max(1)).unwrap_or(i64::MAX);
    let payload = trigger.payload.to_string();
    let args = [
        (&trigger.id).into(),
        payload.as_str().into(),
        now_ms().into(),
        (&trigger.organization).into(),
        (&trigger.job_id).into(),
    ];
    db.execute(PUT_TRIGGER.text(d), &args).await?;
    let args = [(&trigger.organization).into(), (keep - 1).into()];
    db.execute(PRUNE_TRIGGERS.text(d), &args).await?;
    Ok(())
}

/// Upserts `token`'s renewal time (now) and drops renewals older than `keep_ms`.
pub(crate) async fn renew_heartbeat(
    db: &impl Db,
    organization: String,
    token: String,
    keep_ms: i64,
) -> Result<(), StoreError> {
    let d = db.dialect();
    let now = now_ms();
    let args = [(&token).into(), (&organization).into(), now.into()];
    db.execute(RENEW.text(d), &args).await?;
    db.execute(
        FORGET_HEARTBEATS.text(d),
        &[now.saturating_sub(keep_ms).into()],
    )
    .await?;
    Ok(())
}

/// When `organization` last renewed `token`.
pub(crate) async fn heartbeat(
    db: &impl Db,
    organization: String,
    token: String,
) -> Result<Option<i64>, StoreError> {
    let args = [(&token).into(), (&organization).into()];
    db.row(RENEWED_AT.text(db.dialect()), &args, |row| row.get(0))
        .await
}
