//! Runs of asynchronous jobs (`job_runs`): made with their version, claimed by a replica with
//! a compare-and-set on the lease, renewed, changed and checkpointed by their owner only
//! (docs/plans/job-runner.md §4–§6).

use super::{datasets, sql_version, version};
use crate::ids::now_ms;
use crate::store::StoreError;
use crate::store::runs::{Checkpoint, RunChange, RunControl, RunRecord, ShardCheckpoint};
use crate::store::sql::{Db, RowRef, Sql};

static INSERT: Sql = Sql::new(
    "INSERT INTO job_runs (job_id, version, shard, shards, org, processing, state, health, \
     message, owner, lease_until, checkpoints, positions, status, rollback, updated_at) \
     SELECT ?1, ?2, ?6, ?7, org, ?3, 'PENDING', 'UNKNOWN', '', '', 0, 0, '{}', '{}', ?5, ?4 \
     FROM jobs WHERE id = ?1",
);
/// Runs (shards of runs) no live replica owns, that have something to do: not ended, the
/// lease past, every older version of the job ended (a version takes over from the one before
/// it), and not stopped unless asked to run again, superseded or deleted.
static CLAIMABLE: Sql = Sql::new(
    "SELECT r.job_id, r.version, r.org, r.processing, r.state, r.owner, r.lease_until, \
     r.checkpoints, r.positions, r.snapshot, r.started_at, r.rollback, r.shard, r.shards \
     FROM job_runs r JOIN job_versions v ON v.job_id = r.job_id AND v.version = r.version \
     JOIN jobs j ON j.id = r.job_id \
     WHERE r.ended_at IS NULL AND r.lease_until < ?1 \
     AND (r.state <> 'STOPPED' OR v.desired_state = 'RUNNING' OR j.deleted_at IS NOT NULL \
          OR j.latest_version <> r.version) \
     AND NOT EXISTS (SELECT 1 FROM job_runs o WHERE o.job_id = r.job_id \
                     AND o.version < r.version AND o.ended_at IS NULL) \
     ORDER BY r.lease_until, r.job_id, r.version, r.shard LIMIT ?2",
);
static CLAIM: Sql = Sql::new(
    "UPDATE job_runs SET owner = ?1, lease_until = ?2, updated_at = ?3 \
     WHERE job_id = ?4 AND version = ?5 AND shard = ?7 AND lease_until = ?6 \
     AND ended_at IS NULL",
);
static RENEW: Sql = Sql::new(
    "UPDATE job_runs SET lease_until = ?1, status = COALESCE(?5, status) \
     WHERE job_id = ?2 AND version = ?3 AND shard = ?6 AND owner = ?4 AND ended_at IS NULL",
);
static CONTROL: Sql = Sql::new(
    "SELECT v.desired_state, j.latest_version, j.deleted_at, v.state FROM jobs j \
     JOIN job_versions v ON v.job_id = j.id WHERE j.id = ?1 AND v.version = ?2",
);
static CHANGE: Sql = Sql::new(
    "UPDATE job_runs SET state = ?1, health = ?2, message = ?3, \
     started_at = COALESCE(started_at, ?4), ended_at = COALESCE(?5, ended_at), \
     owner = ?6, lease_until = CASE WHEN ?6 = '' THEN 0 ELSE lease_until END, updated_at = ?7 \
     WHERE job_id = ?8 AND version = ?9 AND shard = ?11 AND owner = ?10",
);
/// The version's state: a failed version stays failed (a shard's failure ends its siblings).
static VERSION_STATE: Sql = Sql::new(
    "UPDATE job_versions SET state = ?1 WHERE job_id = ?2 AND version = ?3 AND state <> 'FAILED'",
);
static CHECKPOINT: Sql = Sql::new(
    "UPDATE job_runs SET lease_until = ?1, checkpoints = checkpoints + 1, positions = ?2, \
     snapshot = ?3, status = ?4, updated_at = ?5 \
     WHERE job_id = ?6 AND version = ?7 AND shard = ?9 AND owner = ?8 AND ended_at IS NULL",
);
/// Every shard of the newest earlier version that checkpointed.
static PREVIOUS: Sql = Sql::new(
    "SELECT shard, positions, snapshot FROM job_runs WHERE job_id = ?1 AND version = \
     (SELECT MAX(version) FROM job_runs WHERE job_id = ?1 AND version < ?2 AND checkpoints > 0) \
     ORDER BY shard",
);
static SHARDS: Sql = Sql::new("SELECT COUNT(*) FROM job_runs WHERE job_id = ?1 AND version = ?2");
static RUN: Sql = Sql::new(
    "SELECT r.job_id, r.version, r.org, r.processing, r.state, r.owner, r.lease_until, \
     r.checkpoints, r.positions, r.snapshot, r.started_at, r.rollback, r.shard, r.shards \
     FROM job_runs r WHERE r.job_id = ?1 AND r.org = ?2 AND r.shard = 0 \
     ORDER BY r.version DESC LIMIT 1",
);
/// The positions of the runs that hold what they read: not ended, not stopped.
static READING: Sql = Sql::new(
    "SELECT positions FROM job_runs WHERE ended_at IS NULL AND state <> 'STOPPED' \
     AND positions <> '{}'",
);

/// The job's latest version, locked on PostgreSQL for the rest of the transaction.
static LOCK_LATEST: Sql = Sql::new(
    "SELECT latest_version FROM jobs WHERE id = ?1 AND org = ?2 AND deleted_at IS NULL{for_update}",
);
/// A copy of version ?3 as version ?2, to run (`PENDING`, `RUNNING` wanted).
static COPY_VERSION: Sql = Sql::new(
    "INSERT INTO job_versions (job_id, version, name, execution, processing, state, \
     desired_state, tags, definition, resolved, templates, edited_by, created_at) \
     SELECT job_id, ?2, name, execution, processing, 'PENDING', 'RUNNING', tags, definition, \
     resolved, templates, edited_by, ?4 FROM job_versions WHERE job_id = ?1 AND version = ?3",
);
static SET_LATEST: Sql = Sql::new("UPDATE jobs SET latest_version = ?1 WHERE id = ?2");

fn run(row: &RowRef<'_>) -> Result<RunRecord, StoreError> {
    Ok(RunRecord {
        job_id: row.get(0)?,
        version: version(row.get(1)?),
        organization: row.get(2)?,
        processing: row.get(3)?,
        state: row.get(4)?,
        owner: row.get(5)?,
        lease_until_ms: row.get(6)?,
        checkpoints: row.get(7)?,
        positions: row.get(8)?,
        snapshot: row.get(9)?,
        started_at_ms: row.get(10)?,
        rollback: row.get::<i64>(11)? != 0,
        shard: u32::try_from(row.get::<i64>(12)?).unwrap_or(0),
        shards: u32::try_from(row.get::<i64>(13)?).unwrap_or(1).max(1),
    })
}

/// Makes the run of a new asynchronous job version (`PENDING`, owned by no one): `shards`
/// rows, each claimed on its own.
pub(super) async fn insert(
    db: &impl Db,
    job_id: &str,
    version: u64,
    processing: &str,
    rollback: bool,
    shards: u32,
) -> Result<(), StoreError> {
    let shards = shards.max(1);
    for shard in 0..shards {
        let args = [
            job_id.into(),
            sql_version(version).into(),
            processing.into(),
            now_ms().into(),
            i64::from(rollback).into(),
            i64::from(shard).into(),
            i64::from(shards).into(),
        ];
        db.execute(INSERT.text(db.dialect()), &args).await?;
    }
    Ok(())
}

/// Up to `limit` runs a replica may claim now.
pub(crate) async fn claimable(
    db: &impl Db,
    now_ms: i64,
    limit: i64,
) -> Result<Vec<RunRecord>, StoreError> {
    let args = [now_ms.into(), limit.into()];
    db.rows(CLAIMABLE.text(db.dialect()), &args, run).await
}

/// Takes `run` for `owner` until `lease_until_ms`, if its lease is still the one read:
/// `false` when another replica was first.
pub(crate) async fn claim(
    db: &impl Db,
    run: RunRecord,
    owner: String,
    lease_until_ms: i64,
) -> Result<bool, StoreError> {
    let args = [
        (&owner).into(),
        lease_until_ms.into(),
        now_ms().into(),
        (&run.job_id).into(),
        sql_version(run.version).into(),
        run.lease_until_ms.into(),
        i64::from(run.shard).into(),
    ];
    Ok(db.execute(CLAIM.text(db.dialect()), &args).await? == 1)
}

/// Renews `owner`'s lease on a run (writing its counters, when given) and reads what it
/// should do.
pub(crate) async fn renew(
    db: &impl Db,
    job_id: String,
    run_version: u64,
    shard: u32,
    owner: String,
    lease_until_ms: i64,
    status: Option<String>,
) -> Result<RunControl, StoreError> {
    let d = db.dialect();
    let v = sql_version(run_version);
    let status = status.as_deref();
    let args = [
        lease_until_ms.into(),
        (&job_id).into(),
        v.into(),
        (&owner).into(),
        status.into(),
        i64::from(shard).into(),
    ];
    if db.execute(RENEW.text(d), &args).await? == 0 {
        return Ok(RunControl::Lost);
    }
    let control = db
        .row(CONTROL.text(d), &[(&job_id).into(), v.into()], |row| {
            Ok(RunControl::Held {
                desired_state: row.get(0)?,
                superseded: version(row.get(1)?) > run_version,
                deleted: row.get::<Option<i64>>(2)?.is_some(),
                failed: row.get::<String>(3)? == "FAILED",
            })
        })
        .await?;
    Ok(control.unwrap_or(RunControl::Lost))
}

/// Writes a change of state by its owner, with the version's `state`: `false` (nothing
/// written) when `owner` does not own the run.
pub(crate) async fn change(db: &impl Db, change: RunChange) -> Result<bool, StoreError> {
    let d = db.dialect();
    let now = now_ms();
    let owner = if change.ended || change.release {
        ""
    } else {
        change.owner.as_str()
    };
    let v = sql_version(change.version);
    let args = [
        (&change.state).into(),
        (&change.health).into(),
        (&change.message).into(),
        change.started.then_some(now).into(),
        change.ended.then_some(now).into(),
        owner.into(),
        now.into(),
        (&change.job_id).into(),
        v.into(),
        (&change.owner).into(),
        i64::from(change.shard).into(),
    ];
    if db.execute(CHANGE.text(d), &args).await? == 0 {
        return Ok(false);
    }
    // The version shows shard 0's state, and any shard's failure.
    if change.shard == 0 || change.state == "FAILED" {
        let args = [(&change.state).into(), (&change.job_id).into(), v.into()];
        db.execute(VERSION_STATE.text(d), &args).await?;
    }
    Ok(true)
}

/// Writes a checkpoint in one transaction: `false` (nothing written, not even the files) when
/// `owner` does not own the run any more.
pub(crate) async fn checkpoint(db: &impl Db, checkpoint: Checkpoint) -> Result<bool, StoreError> {
    let d = db.dialect();
    let args = [
        checkpoint.lease_until_ms.into(),
        (&checkpoint.positions).into(),
        checkpoint.snapshot.as_slice().into(),
        (&checkpoint.status).into(),
        now_ms().into(),
        (&checkpoint.job_id).into(),
        sql_version(checkpoint.version).into(),
        (&checkpoint.owner).into(),
        i64::from(checkpoint.shard).into(),
    ];
    if db.execute(CHECKPOINT.text(d), &args).await? == 0 {
        return Ok(false);
    }
    for commit in checkpoint.commits {
        datasets::commit(
            db,
            checkpoint.organization.clone(),
            commit.dataset_id,
            commit.run_id,
            commit.files,
        )
        .await?;
    }
    Ok(true)
}

/// The last checkpoint of every shard of the newest earlier version of the job that
/// checkpointed, by shard: where a new version takes over.
pub(crate) async fn previous_checkpoint(
    db: &impl Db,
    job_id: String,
    before_version: u64,
) -> Result<Vec<ShardCheckpoint>, StoreError> {
    let args = [(&job_id).into(), sql_version(before_version).into()];
    db.rows(PREVIOUS.text(db.dialect()), &args, |row| {
        Ok(ShardCheckpoint {
            shard: u32::try_from(row.get::<i64>(0)?).unwrap_or(0),
            positions: row.get(1)?,
            snapshot: row.get(2)?,
        })
    })
    .await
}

/// The checkpointed positions of every run not ended nor stopped (the intake log keeps what
/// they have not read: `intake_log`).
pub(crate) async fn reading_positions(db: &impl Db) -> Result<Vec<String>, StoreError> {
    db.rows(READING.text(db.dialect()), &[], |row| row.get(0))
        .await
}

/// The run of a job's newest version that has one.
pub(crate) async fn latest(
    db: &impl Db,
    organization: String,
    job_id: String,
) -> Result<Option<RunRecord>, StoreError> {
    let args = [(&job_id).into(), (&organization).into()];
    db.row(RUN.text(db.dialect()), &args, run).await
}

/// Rolls a failed version back: when `failed` is still the job's latest version, a new
/// version is made from the one before it and runs (it takes over from the last checkpoint).
/// `None` when there is nothing to roll back to, or a newer version exists already.
pub(crate) async fn rollback(
    db: &impl Db,
    organization: String,
    job_id: String,
    failed: u64,
    processing: String,
) -> Result<Option<u64>, StoreError> {
    let d = db.dialect();
    let args = [(&job_id).into(), (&organization).into()];
    let Some(latest) = db
        .row(LOCK_LATEST.text(d), &args, |row| row.get::<i64>(0))
        .await?
    else {
        return Ok(None);
    };
    if version(latest) != failed || failed < 2 {
        return Ok(None);
    }
    let next = failed + 1;
    let args = [
        (&job_id).into(),
        sql_version(next).into(),
        sql_version(failed - 1).into(),
        now_ms().into(),
    ];
    if db.execute(COPY_VERSION.text(d), &args).await? == 0 {
        return Ok(None);
    }
    // Run as the version it copies was.
    let args = [(&job_id).into(), sql_version(failed - 1).into()];
    let shards = db
        .row(SHARDS.text(d), &args, |row| row.get::<i64>(0))
        .await?
        .and_then(|n| u32::try_from(n).ok())
        .unwrap_or(1);
    let args = [sql_version(next).into(), (&job_id).into()];
    db.execute(SET_LATEST.text(d), &args).await?;
    insert(db, &job_id, next, &processing, false, shards).await?;
    Ok(Some(next))
}
