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

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use jobgraph_core::JobGraph;
use jobgraph_core::pipeline::{Pipeline, Run, RunInput, RunOptions, Running};
use jobgraph_model::lifecycle::JobState;

use super::sink::LakeSinks;
use super::source::{LakeFeed, Position, Read};
use crate::ids::now_ms;
use crate::runs::status::{RunStatus, event_bytes};
use crate::state::AppState;
use crate::store::{Checkpoint, GraphForm, RunChange, RunControl, RunRecord, StoreError};

/// Why a run stopped before its end.
enum Stop {
    /// It cannot go on: `FAILED` with this message.
    Failed(String),
    /// Another replica owns it now, or the database failed: nothing more is written here.
    Lost(String),
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
        organization: run.organization.clone(),
        lease_until: 0,
    };
    let (rollback, processing) = (run.rollback, run.processing.clone());
    match driver.drive(run).await {
        Ok(()) => {}
        Err(Stop::Lost(why)) => {
            tracing::warn!(job = %driver.job_id, version = driver.version, "runner: stopped driving the run: {why}");
        }
        Err(Stop::Failed(message)) => {
            tracing::warn!(job = %driver.job_id, version = driver.version, "runner: the run failed: {message}");
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

impl Stop {
    fn text(&self) -> &str {
        match self {
            Stop::Failed(m) | Stop::Lost(m) => m,
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
    organization: String,
    lease_until: i64,
}

/// A run's moving parts once started.
struct Live {
    pipeline: Pipeline,
    running: Option<Running>,
    feed: Option<LakeFeed>,
    sinks: LakeSinks,
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
                self.owner.to_owned(),
                until,
                status.then(|| self.status_json()),
            )
            .await?;
        self.lease_until = until;
        Ok(match control {
            RunControl::Lost => return Err(Stop::Lost("the lease was taken over".into())),
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
            let behind = live.feed.as_ref().is_some_and(LakeFeed::behind);
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

    /// Loads the graph, plans the source and sinks, and puts back the last checkpoint (this
    /// run's, else the previous version's: an update takes over from there).
    async fn start(&mut self, run: &RunRecord) -> Result<Live, Stop> {
        let record = match self
            .state
            .store
            .job(
                self.organization.clone(),
                self.job_id.clone(),
                Some(self.version),
                GraphForm::Resolved,
            )
            .await
        {
            Ok(record) => record,
            Err(StoreError::NotFound) => {
                return Err(Stop::Failed("the job version is gone".into()));
            }
            Err(e) => return Err(e.into()),
        };
        let graph: JobGraph = serde_json::from_str(record.graph.get())
            .map_err(|e| Stop::Failed(format!("the stored graph does not read: {e}")))?;
        let pipeline = Pipeline::compile(&graph).map_err(|e| Stop::Failed(e.to_string()))?;
        let streaming = record.meta.processing == "STREAMING";
        let mut sources = Vec::new();
        let mut sinks = Vec::new();
        for vertex in &graph.vertices {
            let kind = vertex.vertex_type();
            if LAKE_SOURCES.contains(&kind) {
                sources.push((vertex.name().to_owned(), vertex.fields().clone()));
            } else if kind == LAKE_SINK {
                sinks.push((vertex.name().to_owned(), vertex.fields().clone()));
            }
        }
        if let Some((name, kind)) = pipeline.unrun_sources().first() {
            return Err(Stop::Failed(format!(
                "vertex {name} ({kind}): this service runs asynchronous jobs that read the lake \
                 (logs-iceberg-table-source) or inline events; intake from agents is not built yet"
            )));
        }
        for sink in pipeline.sinks() {
            if !sinks.iter().any(|(name, _)| name == sink) {
                return Err(Stop::Failed(format!(
                    "vertex {sink}: this service's asynchronous jobs write to the lake \
                     (logs-iceberg-table-sink); delivery to vendors is not built yet"
                )));
            }
        }
        if sources.len() > 1 {
            return Err(Stop::Failed(format!(
                "vertices {} and {} both read the lake: a running job reads one dataset source",
                sources[0].0, sources[1].0
            )));
        }
        let mut feed = match sources.first() {
            Some((name, fields)) => Some(
                LakeFeed::plan(self.state, &self.organization, name, fields, streaming)
                    .await
                    .map_err(Stop::Failed)?,
            ),
            None => None,
        };
        let prefix = format!(
            "{}-v{}-{}",
            self.job_id,
            self.version,
            crate::ids::new_id().map_err(|e| Stop::Lost(format!("random: {e}")))?
        );
        let lake_sinks = LakeSinks::plan(self.state, &self.organization, &sinks, prefix)
            .await
            .map_err(Stop::Failed)?;
        let (positions, snapshot) = if run.checkpoints > 0 {
            (run.positions.clone(), run.snapshot.clone())
        } else {
            match self
                .state
                .store
                .previous_checkpoint(self.job_id.clone(), self.version)
                .await?
            {
                Some(previous) => previous,
                None => ("{}".to_owned(), None),
            }
        };
        let positions: BTreeMap<String, Position> =
            serde_json::from_str(&positions).unwrap_or_default();
        if let Some(feed) = &mut feed {
            feed.start_at(self.state, positions.get(&feed.vertex).cloned())
                .await
                .map_err(Stop::Failed)?;
        }
        let options = self.run_options();
        let running = match snapshot.filter(|s| !s.is_empty()) {
            Some(bytes) => match pipeline.resume(options.clone(), &bytes) {
                Ok(running) => running,
                Err(e) => {
                    tracing::warn!(job = %self.job_id, "runner: {e}");
                    pipeline.start(options)
                }
            },
            None => pipeline.start(options),
        };
        let (replica, name) = (self.owner.to_owned(), record.meta.name.clone());
        self.set_status(|s| {
            s.checkpoints = run.checkpoints.max(0) as u64;
            s.replica = replica;
            s.name = name;
        });
        Ok(Live {
            pipeline,
            running: Some(running),
            feed,
            sinks: lake_sinks,
            interval: run.checkpoints,
            dirty: false,
            events_since: 0,
            last_checkpoint: Instant::now(),
            last_event: Instant::now(),
            // A snapshot may hold open windows.
            windows_open: true,
        })
    }

    fn run_options(&self) -> RunOptions {
        let batch = self.config().batch_events.max(1);
        RunOptions {
            keep: 0,
            max_events: batch.max(self.state.config.lake.batch_rows),
            max_handled: batch
                .max(self.state.config.lake.batch_rows)
                .saturating_mul(64),
            timeout_ms: 60_000,
        }
    }

    /// Runs one batch through the engine (on the blocking pool) and writes what reached the
    /// sinks.
    /// A place for one batch of the organization's in the engine (waits while it has
    /// `engineThreadsPerOrganization` there already).
    async fn place(&self) -> Option<tokio::sync::OwnedSemaphorePermit> {
        self.state
            .runs
            .engine_place(&self.organization, self.config().engine_threads())
            .await
    }

    async fn push(
        &self,
        live: &mut Live,
        events: Vec<jobgraph_core::pipeline::LogEvent>,
        place: Option<tokio::sync::OwnedSemaphorePermit>,
    ) -> Result<(), Stop> {
        let n = events.len() as u64;
        let (bytes, newest) = events.iter().fold((0, None), |(b, t), e| {
            let time = jobgraph_core::pipeline::event_time_ms(e);
            (b + event_bytes(e), t.max(time))
        });
        let input = RunInput {
            events,
            ..RunInput::default()
        };
        let run = self
            .engine(live, move |running| running.push(input), place)
            .await?;
        self.set_status(|s| {
            s.events_in += n;
            s.bytes_in += bytes;
            if newest.is_some() {
                s.newest_event_ms = s.newest_event_ms.max(newest);
            }
        });
        live.events_since += n;
        live.dirty = true;
        if n > 0 {
            live.last_event = Instant::now();
            live.windows_open = true;
        }
        self.write(live, run).await
    }

    /// Closes the reducers' windows but those of `keep` and writes their summaries.
    async fn close_windows(&self, live: &mut Live, keep: &[String]) -> Result<(), Stop> {
        let keep = keep.to_vec();
        let run = self
            .engine(
                live,
                move |running| running.close_windows_except(&keep),
                None,
            )
            .await?;
        live.dirty = true;
        self.write(live, run).await
    }

    async fn engine(
        &self,
        live: &mut Live,
        step: impl FnOnce(&mut Running) -> Result<Run, jobgraph_core::pipeline::RunError>
        + Send
        + 'static,
        place: Option<tokio::sync::OwnedSemaphorePermit>,
    ) -> Result<Run, Stop> {
        let Some(mut running) = live.running.take() else {
            return Err(Stop::Failed("the engine stopped after an error".into()));
        };
        running.set_keep(self.taps.wanted());
        // The organization's place in the engine, held while the batch runs (taken before
        // the read by a batch of the source's).
        let place = match place {
            Some(place) => Some(place),
            None => self.place().await,
        };
        let (result, running) = tokio::task::spawn_blocking(move || {
            let result = step(&mut running);
            drop(place);
            (result, running)
        })
        .await
        .map_err(|e| Stop::Failed(format!("the engine stopped: {e}")))?;
        live.running = Some(running);
        let run = result.map_err(|e| {
            self.set_status(|s| s.errors += 1);
            Stop::Failed(e.to_string())
        })?;
        self.taps.feed(&run);
        Ok(run)
    }

    async fn write(&self, live: &mut Live, run: Run) -> Result<(), Stop> {
        let mut sink_bytes = Vec::new();
        let mut out = 0u64;
        for (sink, events) in &run.sinks {
            if !live.sinks.has(sink) || events.is_empty() {
                continue;
            }
            out += events.len() as u64;
            sink_bytes.push((sink.clone(), events.iter().map(event_bytes).sum::<u64>()));
            live.sinks
                .write(sink, live.interval + 1, events)
                .await
                .map_err(Stop::Failed)?;
        }
        let bytes: u64 = sink_bytes.iter().map(|(_, b)| b).sum();
        self.set_status(|s| {
            s.count(&run, &sink_bytes);
            s.events_out += out;
            s.bytes_out += bytes;
        });
        Ok(())
    }

    /// The job's newest version, compiled: what this one hands over to.
    async fn next_pipeline(&self) -> Option<Pipeline> {
        let next = self
            .state
            .store
            .job(
                self.organization.clone(),
                self.job_id.clone(),
                None,
                GraphForm::Resolved,
            )
            .await
            .ok()?;
        let graph = serde_json::from_str::<JobGraph>(next.graph.get()).ok()?;
        Pipeline::compile(&graph).ok()
    }

    /// One checkpoint: the sinks' files, the source's position and the engine's snapshot in
    /// one transaction, if this owner still owns the run.
    async fn checkpoint(&mut self, live: &mut Live) -> Result<(), Stop> {
        let commits = match live.sinks.finish().await {
            Ok(commits) => commits,
            Err(e) => {
                live.sinks.abort().await;
                return Err(Stop::Failed(e));
            }
        };
        let mut positions = BTreeMap::new();
        if let Some(feed) = &live.feed {
            positions.insert(feed.vertex.clone(), feed.position().clone());
        }
        let snapshot = live
            .running
            .as_ref()
            .map(Running::snapshot)
            .unwrap_or_default();
        let now = now_ms();
        self.set_status(|s| {
            s.checkpoints += 1;
            s.last_checkpoint_ms = Some(now);
        });
        let until = now + self.config().lease_ms as i64;
        let checkpoint = Checkpoint {
            job_id: self.job_id.clone(),
            version: self.version,
            organization: self.organization.clone(),
            owner: self.owner.to_owned(),
            lease_until_ms: until,
            positions: serde_json::to_string(&positions).unwrap_or_else(|_| "{}".into()),
            snapshot,
            status: self.status_json(),
            commits,
        };
        let committed_files = !checkpoint.commits.is_empty();
        if !self.state.store.checkpoint_run(checkpoint).await? {
            return Err(Stop::Lost(
                "another replica owns the run: its files are left to garbage collection".into(),
            ));
        }
        self.lease_until = until;
        live.interval += 1;
        live.dirty = false;
        live.events_since = 0;
        live.last_checkpoint = Instant::now();
        if committed_files {
            self.state.runs.committed.notify_waiters();
        }
        let _ = &live.pipeline;
        Ok(())
    }
}
