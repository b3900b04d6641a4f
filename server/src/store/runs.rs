//! The records of running asynchronous jobs (`job_runs`, migration 6): one run per job version
//! that runs, owned by one replica through a lease, with its last checkpoint
//! (docs/plans/job-runner.md §4–§6).

use super::LakeFileRecord;

/// One job version's run.
#[derive(Clone)]
pub struct RunRecord {
    /// The job.
    pub job_id: String,
    /// The version that runs.
    pub version: u64,
    /// The job's organization.
    pub organization: String,
    /// `STREAMING` or `BATCH`.
    pub processing: String,
    /// Its state (`jobgraph_model::lifecycle::JobState`'s wire name).
    pub state: String,
    /// The replica that owns it (empty: none).
    pub owner: String,
    /// Until when the owner's lease holds (ms since the epoch; 0: never taken).
    pub lease_until_ms: i64,
    /// Checkpoints written so far.
    pub checkpoints: i64,
    /// The sources' positions at the last checkpoint (JSON text, `{}` before the first).
    pub positions: String,
    /// The engine's snapshot at the last checkpoint.
    pub snapshot: Option<Vec<u8>>,
    /// When it started running.
    pub started_at_ms: Option<i64>,
    /// Whether a failure rolls the job back to the version before.
    pub rollback: bool,
    /// Which shard of the run this is (0 when it is one), of `shards`: each reads one
    /// partition of its integration's events (`docs/intake.md`, "Partitions").
    pub shard: u32,
    /// The run's shards.
    pub shards: u32,
}

/// One shard's last checkpoint.
#[derive(Clone)]
pub struct ShardCheckpoint {
    /// The shard.
    pub shard: u32,
    /// Its sources' positions (JSON text).
    pub positions: String,
    /// Its engine's snapshot.
    pub snapshot: Option<Vec<u8>>,
}

impl std::fmt::Debug for ShardCheckpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShardCheckpoint")
            .field("shard", &self.shard)
            .field("positions", &self.positions)
            .finish_non_exhaustive()
    }
}

impl std::fmt::Debug for RunRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunRecord")
            .field("job_id", &self.job_id)
            .field("version", &self.version)
            .field("shard", &self.shard)
            .field("state", &self.state)
            .field("owner", &self.owner)
            .field("checkpoints", &self.checkpoints)
            .finish_non_exhaustive()
    }
}

/// What the owner of a run learns when it renews its lease.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunControl {
    /// The lease is lost (another replica took the run, or it ended): stop without writing.
    Lost,
    /// The lease holds until the time given.
    Held {
        /// The version's `desiredState` (`RUNNING` or `STOPPED`).
        desired_state: String,
        /// Whether a newer version of the job exists (this one retires).
        superseded: bool,
        /// Whether the job was deleted (this run ends).
        deleted: bool,
        /// Whether the version failed (another shard of the run did: this one ends too).
        failed: bool,
    },
}

/// A change of a run's state, written with the version's `state` in one transaction by its
/// owner (nothing is written when another replica owns it now).
#[derive(Debug, Clone)]
pub struct RunChange {
    /// The job.
    pub job_id: String,
    /// The version.
    pub version: u64,
    /// The shard.
    pub shard: u32,
    /// The owner that writes.
    pub owner: String,
    /// The new state.
    pub state: String,
    /// Its health.
    pub health: String,
    /// Why (empty when healthy).
    pub message: String,
    /// Sets `startedAt` to now if it has none.
    pub started: bool,
    /// Ends the run (`endedAt` now; the lease is let go).
    pub ended: bool,
    /// Lets the lease go without ending the run (stopped: any replica may start it again).
    pub release: bool,
}

/// A sink's files written since the last checkpoint.
#[derive(Debug, Clone)]
pub struct SinkCommit {
    /// The dataset.
    pub dataset_id: String,
    /// The files' run id (one per sink and checkpoint: committing it twice writes nothing).
    pub run_id: String,
    /// The files.
    pub files: Vec<LakeFileRecord>,
}

/// A checkpoint: in one transaction, the sinks' files, the sources' positions and the
/// engine's snapshot, if the writer still owns the run.
#[derive(Clone)]
pub struct Checkpoint {
    /// The job.
    pub job_id: String,
    /// The version.
    pub version: u64,
    /// The shard.
    pub shard: u32,
    /// The job's organization (the datasets').
    pub organization: String,
    /// The owner that writes.
    pub owner: String,
    /// The lease, renewed until then.
    pub lease_until_ms: i64,
    /// The sources' positions (JSON text).
    pub positions: String,
    /// The engine's snapshot.
    pub snapshot: Vec<u8>,
    /// The counters (`pipelineStatus`, JSON text).
    pub status: String,
    /// The sinks' files.
    pub commits: Vec<SinkCommit>,
}

impl std::fmt::Debug for Checkpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Checkpoint")
            .field("job_id", &self.job_id)
            .field("version", &self.version)
            .field("snapshot_bytes", &self.snapshot.len())
            .field("commits", &self.commits)
            .finish_non_exhaustive()
    }
}
