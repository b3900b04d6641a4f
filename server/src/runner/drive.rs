//! One run of an asynchronous job version, from its claim to its end (docs/api.md, "Running
//! jobs"):
//!
//! - streaming: `PENDING` → `RUNNING`; asked to stop: `STOPPING` (a checkpoint) → `STOPPED`,
//!   the lease let go; asked to run again: `RUNNING` from that checkpoint;
//! - a newer version: this one closes the windows the next does not carry on, checkpoints and
//!   retires (`FINISHED`); the next starts from its positions and snapshot;
//! - deleted: the windows closed, a checkpoint, `FINISHED`;
//! - batch (a backfill): `PENDING` → `RUNNING` → `FINISHED` when its files are read;
//! - anything that cannot start or fails while processing: `FAILED`, health `UNHEALTHY`, with
//!   a message naming the vertex.
//!
//! Every write is the owner's only: a run whose lease another replica took stops without
//! writing anything (its files never committed).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use jobgraph_core::pipeline::{Pipeline, Running};
use jobgraph_model::lifecycle::JobState;

use super::feed::Feed;
use super::sink::LakeSinks;
use super::source::Read;
use crate::ids::now_ms;
use crate::runs::status::RunStatus;
use crate::state::AppState;
use crate::store::{RunChange, RunControl, RunRecord, StoreError};

mod batches;
mod delivery;
mod setup;

/// Why a run stopped before its end.
enum Stop {
    /// It cannot go on: `FAILED` with this message.
    Failed(String),
    /// Another replica owns it now, or the database failed: nothing more is written here.
    Lost(String),
    /// Asked to stop, retire or end while a vendor was not taking its events: it does so
    /// from its last checkpoint (what came after is read again by whoever runs next).
    Interrupted(Next),
}

impl From<StoreError> for Stop {
    fn from(e: StoreError) -> Self {
        Stop::Lost(format!("the database: {e}"))
    }
}

/// The sources the runner reads and the sinks it writes, by type.
const LAKE_SOURCES: &[&str] = &["logs-iceberg-table-source", "grepr-raw-log-source"];
const LAKE_SINK: &str = "logs-iceberg-table-sink";

/// Drives `run` (claimed by `owner`) to its end, or until its lease is lost.
pub(super) async fn drive(
    state: &AppState,
    owner: &str,
    run: RunRecord,
    driven: crate::runs::Driven,
) {
    let mut driver = Driver {
        state,
        owner,
        status: driven.status,
        taps: driven.taps,
        poked: driven.poked,
        job_id: run.job_id.clone(),
        version: run.version,
        shard: run.shard,
        shards: run.shards,
        organization: run.organization.clone(),
        lease_until: 0,
    };
    let (rollback, processing) = (run.rollback, run.processing.clone());
    match driver.drive(run).await {
        Ok(()) => {}
        Err(Stop::Lost(why)) => {
            tracing::warn!(job = %driver.job_id, version = driver.version, "runner: stopped driving the run: {why}");
        }
        Err(Stop::Interrupted(next)) => {
            tracing::info!(job = %driver.job_id, version = driver.version, "runner: interrupted while a vendor was not taking events: ends at its last checkpoint");
            let result = match next {
                Next::Stop => {
                    driver
                        .change(JobState::Stopped, "UNKNOWN", "", true, false)
                        .await
                }
                _ => {
                    driver
                        .change(JobState::Finished, "HEALTHY", "", false, true)
                        .await
                }
            };
            if let Err(e) = result {
                tracing::warn!(job = %driver.job_id, "runner: could not record the end: {}", e.text());
            }
        }
        Err(Stop::Failed(message)) => {
            if message.is_empty() {
                tracing::warn!(job = %driver.job_id, version = driver.version, shard = driver.shard, "runner: another shard of the run failed: this one ends too");
            } else {
                tracing::warn!(job = %driver.job_id, version = driver.version, "runner: the run failed: {message}");
            }
            if let Err(e) = driver
                .change(JobState::Failed, "UNHEALTHY", &message, false, true)
                .await
            {
                tracing::warn!(job = %driver.job_id, "runner: could not record the failure: {}", e.text());
                return;
            }
            if rollback {
                match state
                    .store
                    .rollback_job(
                        driver.organization.clone(),
                        driver.job_id.clone(),
                        driver.version,
                        processing,
                    )
                    .await
                {
                    Ok(Some(version)) => {
                        tracing::info!(job = %driver.job_id, version, "runner: rolled back to the version before the failed one");
                    }
                    Ok(None) => {}
                    Err(e) => {
                        tracing::warn!(job = %driver.job_id, "runner: could not roll back: {e}")
                    }
                }
            }
        }
    }
}

/// Resolves when agents' logs were taken (never, without an intake log).
async fn appended(state: &AppState) {
    match &state.intake {
        Some(log) => log.appended().await,
        None => std::future::pending().await,
    }
}

impl Stop {
    fn text(&self) -> &str {
        match self {
            Stop::Failed(m) | Stop::Lost(m) => m,
            Stop::Interrupted(_) => "interrupted",
        }
    }
}

struct Driver<'a> {
    state: &'a AppState,
    owner: &'a str,
    status: Arc<Mutex<RunStatus>>,
    taps: Arc<crate::runs::tap::Taps>,
    /// Notified when the job changed on this replica: renew at once.
    poked: Arc<tokio::sync::Notify>,
    job_id: String,
    version: u64,
    /// Which shard of the run this is, of `shards` (`docs/intake.md`, "Partitions").
    shard: u32,
    shards: u32,
    organization: String,
    lease_until: i64,
}

/// A run's moving parts once started.
struct Live {
    pipeline: Pipeline,
    running: Option<Running>,
    feed: Option<Feed>,
    sinks: LakeSinks,
    /// The vendor sinks (delivered at once, at least once).
    vendors: Vec<super::vendor_sink::VendorSink>,
    /// The checkpoint interval being written (the checkpoints made so far).
    interval: i64,
    /// Whether events went in since the last checkpoint.
    dirty: bool,
    events_since: u64,
    last_checkpoint: Instant,
    /// When the source last gave events.
    last_event: Instant,
    /// Whether events went in since the reducers' windows were last closed.
    windows_open: bool,
}

/// What to do after the lease is renewed.
#[derive(Debug)]
enum Next {
    Go,
    Stop,
    Retire,
    End,
}

impl Driver<'_> {
    fn config(&self) -> &crate::runs::RunnerConfig {
        &self.state.config.runner
    }

    fn set_status(&self, change: impl FnOnce(&mut RunStatus)) {
        if let Ok(mut status) = self.status.lock() {
            change(&mut status);
        }
    }

    fn status_json(&self) -> String {
        self.status
            .lock()
            .map(|s| s.to_json(now_ms()).to_string())
            .unwrap_or_else(|_| "{}".into())
    }

    /// Writes a change of state; `Lost` when this owner does not own the run any more.
    async fn change(
        &self,
        state: JobState,
        health: &str,
        message: &str,
        release: bool,
        ended: bool,
    ) -> Result<(), Stop> {
        let change = RunChange {
            job_id: self.job_id.clone(),
            version: self.version,
            shard: self.shard,
            owner: self.owner.to_owned(),
            state: state.as_str().to_owned(),
            health: health.to_owned(),
            message: message.to_owned(),
            started: state == JobState::Running,
            ended,
            release,
        };
        self.set_status(|s| s.state = state.as_str().to_owned());
        if self.state.store.change_run(change).await? {
            Ok(())
        } else {
            Err(Stop::Lost("another replica owns the run".into()))
        }
    }

    /// Renews the lease (writing the counters when `status`): what the run should do now.
    async fn renew(&mut self, status: bool) -> Result<Next, Stop> {
        let until = now_ms() + self.config().lease_ms as i64;
        let control = self
            .state
            .store
            .renew_run(
                self.job_id.clone(),
                self.version,
                self.shard,
                self.owner.to_owned(),
                until,
                status.then(|| self.status_json()),
            )
            .await?;
        self.lease_until = until;
        Ok(match control {
            RunControl::Lost => return Err(Stop::Lost("the lease was taken over".into())),
            // Another shard of the run failed: the run has (its message is the job's).
            RunControl::Held { failed: true, .. } => return Err(Stop::Failed(String::new())),
            RunControl::Held { deleted: true, .. } => Next::End,
            RunControl::Held {
                superseded: true, ..
            } => Next::Retire,
            RunControl::Held { desired_state, .. } if desired_state == "STOPPED" => Next::Stop,
            RunControl::Held { .. } => Next::Go,
        })
    }

    async fn drive(&mut self, run: RunRecord) -> Result<(), Stop> {
        let next = self.renew(false).await?;
        let never_ran = run.started_at_ms.is_none() && run.checkpoints == 0;
        match next {
            // Deleted or superseded before it ever ran: nothing to hand over.
            Next::End | Next::Retire if never_ran => {
                return self
                    .change(JobState::Finished, "UNKNOWN", "", false, true)
                    .await;
            }
            Next::Stop => {
                // Asked to stop before it ran, or stopped and claimed again while still
                // stopped: it stays stopped and lets the lease go.
                self.change(JobState::Stopped, "UNKNOWN", "", true, false)
                    .await?;
                return Ok(());
            }
            _ => {}
        }
        let mut live = self.start(&run).await?;
        // The position it starts from is kept at once: a restart before the first batch's
        // checkpoint starts there too, not from a later "now".
        self.checkpoint(&mut live).await?;
        // A run taken up only to retire or end (a stopped version superseded or deleted)
        // does not claim to run on the way.
        if matches!(next, Next::Go) {
            self.change(JobState::Running, "HEALTHY", "", false, false)
                .await?;
        }
        let mut next_renewal = Instant::now() + Duration::from_millis(self.config().renew_ms);
        let mut next = next;
        loop {
            match next {
                Next::Go => {}
                Next::Stop => {
                    self.change(JobState::Stopping, "HEALTHY", "", false, false)
                        .await?;
                    self.checkpoint(&mut live).await?;
                    return self
                        .change(JobState::Stopped, "UNKNOWN", "", true, false)
                        .await;
                }
                Next::Retire => {
                    let next_version = self.next_pipeline().await;
                    let keep = match (&live.running, &next_version) {
                        (Some(running), Some(next)) => running.carried_by(next),
                        _ => Vec::new(),
                    };
                    self.close_windows(&mut live, &keep).await?;
                    self.checkpoint(&mut live).await?;
                    return self
                        .change(JobState::Finished, "HEALTHY", "", false, true)
                        .await;
                }
                Next::End => {
                    self.close_windows(&mut live, &[]).await?;
                    self.checkpoint(&mut live).await?;
                    return self
                        .change(JobState::Finished, "HEALTHY", "", false, true)
                        .await;
                }
            }
            // A change made on this replica is read at once (`notify_one` keeps the permit
            // until this looks).
            if futures_util::FutureExt::now_or_never(self.poked.notified()).is_some() {
                next_renewal = Instant::now();
            }
            if Instant::now() >= next_renewal {
                // Counters move while nothing is checkpointed (an idle stream's lag): written
                // with the lease, in the same statement.
                next = self.renew(!live.dirty).await?;
                next_renewal = Instant::now() + Duration::from_millis(self.config().renew_ms);
                continue;
            }
            // The organization's place in the engine is taken before the read and held
            // through the batch: only the runs in the engine hold a batch in memory.
            let place = self.place().await;
            let read = match live.feed.as_mut() {
                Some(feed) => feed.read(self.state).await.map_err(Stop::Failed)?,
                None if live.running.as_ref().is_some_and(|r| r.batches() == 0) => {
                    // Inline events only (`logs-values-source`): one batch.
                    Read::Events(Vec::new())
                }
                None => Read::End,
            };
            let behind = live.feed.as_ref().is_some_and(Feed::behind);
            self.set_status(|s| {
                s.behind_since_ms = match (behind, s.behind_since_ms) {
                    (false, _) => None,
                    (true, since) => since.or(Some(now_ms())),
                }
            });
            match read {
                Read::Events(events) => {
                    self.push(&mut live, events, place).await?;
                    let config = self.config();
                    if live.events_since >= config.checkpoint_events
                        || live.last_checkpoint.elapsed()
                            >= Duration::from_millis(config.checkpoint_ms)
                    {
                        self.checkpoint(&mut live).await?;
                    }
                }
                Read::Idle => {
                    drop(place);
                    // A stream quiet for `idleCloseMs`: its reducers' windows close, as at
                    // the end of an input (their summaries go out).
                    let quiet = Duration::from_millis(self.config().idle_close_ms);
                    if live.windows_open && live.last_event.elapsed() >= quiet {
                        self.close_windows(&mut live, &[]).await?;
                        live.windows_open = false;
                    }
                    if live.dirty {
                        self.checkpoint(&mut live).await?;
                    }
                    let wait = Duration::from_millis(self.config().idle_poll_ms.max(10))
                        .min(next_renewal.saturating_duration_since(Instant::now()));
                    tokio::select! {
                        _ = tokio::time::sleep(wait) => {}
                        _ = self.state.runs.committed.notified() => {}
                        _ = appended(self.state) => {}
                        _ = self.poked.notified() => next_renewal = Instant::now(),
                    }
                }
                Read::End => {
                    drop(place);
                    self.close_windows(&mut live, &[]).await?;
                    self.checkpoint(&mut live).await?;
                    return self
                        .change(JobState::Finished, "HEALTHY", "", false, true)
                        .await;
                }
            }
        }
    }
}
