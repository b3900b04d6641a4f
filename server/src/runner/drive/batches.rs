//! A run's batches: the organization's place in the engine, a batch through the engine (on
//! the blocking pool), what reached the sinks written, the windows closed, and checkpoints
//! (the sinks' files, the source's position and the engine's snapshot in one transaction).

use std::collections::BTreeMap;
use std::time::Instant;

use jobgraph_core::pipeline::{Run, RunInput, Running};

use super::{Driver, Live, Stop};
use crate::ids::now_ms;
use crate::runs::status::event_bytes;
use crate::store::Checkpoint;

impl Driver<'_> {
    /// Runs one batch through the engine (on the blocking pool) and writes what reached the
    /// sinks.
    /// A place for one batch of the organization's in the engine (waits while it has
    /// `engineThreadsPerOrganization` there already).
    pub(super) async fn place(&self) -> Option<tokio::sync::OwnedSemaphorePermit> {
        self.state
            .runs
            .engine_place(&self.organization, self.config().engine_threads())
            .await
    }

    pub(super) async fn push(
        &mut self,
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
    pub(super) async fn close_windows(
        &mut self,
        live: &mut Live,
        keep: &[String],
    ) -> Result<(), Stop> {
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

    pub(super) async fn engine(
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

    pub(super) async fn write(&mut self, live: &mut Live, run: Run) -> Result<(), Stop> {
        let mut sink_bytes = Vec::new();
        let mut out = 0u64;
        for (sink, events) in &run.sinks {
            if events.is_empty() {
                continue;
            }
            if live.vendors.iter().any(|v| &v.vertex == sink) {
                out += events.len() as u64;
                sink_bytes.push((sink.clone(), events.iter().map(event_bytes).sum::<u64>()));
                self.deliver(live, sink, events).await?;
                continue;
            }
            if !live.sinks.has(sink) {
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

    /// One checkpoint: the sinks' files, the source's position and the engine's snapshot in
    /// one transaction, if this owner still owns the run.
    pub(super) async fn checkpoint(&mut self, live: &mut Live) -> Result<(), Stop> {
        let commits = match live.sinks.finish().await {
            Ok(commits) => commits,
            Err(e) => {
                live.sinks.abort().await;
                return Err(Stop::Failed(e));
            }
        };
        let mut positions = BTreeMap::new();
        if let Some(feed) = &live.feed {
            positions.insert(feed.vertex().to_owned(), feed.position());
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
            shard: self.shard,
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
        if let Some(feed) = &mut live.feed {
            feed.checkpointed().await;
        }
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
