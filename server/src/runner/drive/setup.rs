//! A run's start: its graph loaded and compiled, its source and sinks planned, and the last
//! checkpoint put back (this run's, else the previous version's: an update takes over from
//! there); and the graph of the version it hands over to.

use std::collections::BTreeMap;
use std::time::Instant;

use jobgraph_core::JobGraph;
use jobgraph_core::pipeline::{Pipeline, RunOptions};

use super::{Driver, LAKE_SINK, LAKE_SOURCES, Live, Stop};
use crate::runner::agent_source::{AGENT_SOURCES, AgentFeed};
use crate::runner::feed::Feed;
use crate::runner::sink::LakeSinks;
use crate::runner::source::LakeFeed;
use crate::runner::vendor_sink::{VENDOR_SINKS, VendorSink};
use crate::store::{GraphForm, RunRecord, StoreError};

impl Driver<'_> {
    /// Loads the graph, plans the source and sinks, and puts back the last checkpoint (this
    /// run's, else the previous version's: an update takes over from there).
    pub(super) async fn start(&mut self, run: &RunRecord) -> Result<Live, Stop> {
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
        let mut vendor_vertices = Vec::new();
        for vertex in &graph.vertices {
            let kind = vertex.vertex_type();
            if LAKE_SOURCES.contains(&kind) || AGENT_SOURCES.iter().any(|(k, _)| *k == kind) {
                sources.push((
                    vertex.name().to_owned(),
                    kind.to_owned(),
                    vertex.fields().clone(),
                ));
            } else if kind == LAKE_SINK {
                sinks.push((vertex.name().to_owned(), vertex.fields().clone()));
            } else if VENDOR_SINKS.iter().any(|(k, _)| *k == kind) {
                vendor_vertices.push((
                    vertex.name().to_owned(),
                    kind.to_owned(),
                    vertex.fields().clone(),
                ));
            }
        }
        if let Some((name, kind)) = pipeline
            .unrun_sources()
            .iter()
            .find(|(name, _)| !sources.iter().any(|(n, _, _)| n == name))
        {
            return Err(Stop::Failed(format!(
                "vertex {name} ({kind}): this service runs asynchronous jobs that read the lake \
                 (logs-iceberg-table-source), agents' logs (datadog-log-agent-source, \
                 otel-log-source, splunk-log-agent-source) or inline events"
            )));
        }
        for sink in pipeline.sinks() {
            if !sinks.iter().any(|(name, _)| name == sink)
                && !vendor_vertices.iter().any(|(name, _, _)| name == sink)
            {
                return Err(Stop::Failed(format!(
                    "vertex {sink}: this service's asynchronous jobs write to the lake \
                     (logs-iceberg-table-sink) and deliver to Datadog (datadog-log-sink), \
                     Splunk HEC (splunk-log-sink), Sumo Logic or any OTLP/HTTP receiver \
                     (sumologic-log-sink) and New Relic (newrelic-log-sink)"
                )));
            }
        }
        let mut vendors = Vec::new();
        if !vendor_vertices.is_empty() {
            let client = crate::runner::vendor_sink::client().map_err(Stop::Failed)?;
            for (name, kind, fields) in &vendor_vertices {
                vendors.push(
                    VendorSink::plan(
                        self.state,
                        &self.organization,
                        name,
                        kind,
                        fields,
                        client.clone(),
                    )
                    .map_err(Stop::Failed)?,
                );
            }
            self.dead_letter_dataset().await?;
            for (name, _, _) in &vendor_vertices {
                let mut fields = serde_json::Map::new();
                fields.insert("datasetName".into(), super::delivery::DEAD_LETTERS.into());
                sinks.push((super::delivery::dead_letter_vertex(name), fields));
            }
        }
        if sources.len() > 1 {
            return Err(Stop::Failed(format!(
                "vertices {} and {} are both sources: a running job reads one source (a dataset or an integration's agents)",
                sources[0].0, sources[1].0
            )));
        }
        let mut feed = match sources.first() {
            Some((name, kind, fields)) if LAKE_SOURCES.contains(&kind.as_str()) => {
                Some(Feed::Lake(Box::new(
                    LakeFeed::plan(self.state, &self.organization, name, fields, streaming)
                        .await
                        .map_err(Stop::Failed)?,
                )))
            }
            Some((name, kind, fields)) => Some(Feed::Agent(
                AgentFeed::plan(
                    self.state,
                    &self.organization,
                    &self.run_name(),
                    (self.shards > 1).then_some(self.shard),
                    name,
                    kind,
                    fields,
                )
                .map_err(Stop::Failed)?,
            )),
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
            let previous = self
                .state
                .store
                .previous_checkpoint(self.job_id.clone(), self.version)
                .await?;
            take_over(previous, run.shard, run.shards)
        };
        let positions: BTreeMap<String, serde_json::Value> =
            serde_json::from_str(&positions).unwrap_or_default();
        if let Some(feed) = &mut feed {
            let position = positions.get(feed.vertex());
            feed.start_at(self.state, position)
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
        let partition = (self.shards > 1).then_some(self.shard);
        self.set_status(|s| {
            s.checkpoints = run.checkpoints.max(0) as u64;
            s.partition = partition;
            s.replica = replica;
            s.name = name;
        });
        Ok(Live {
            pipeline,
            running: Some(running),
            feed,
            sinks: lake_sinks,
            vendors,
            interval: run.checkpoints,
            dirty: false,
            events_since: 0,
            last_checkpoint: Instant::now(),
            last_event: Instant::now(),
            // A snapshot may hold open windows.
            windows_open: true,
        })
    }

    /// Makes the organization's `dead-letters` dataset if it has none.
    async fn dead_letter_dataset(&self) -> Result<(), Stop> {
        let name = super::delivery::DEAD_LETTERS.to_owned();
        match self
            .state
            .store
            .dataset_by_name(self.organization.clone(), name.clone())
            .await
        {
            Ok(_) => return Ok(()),
            Err(StoreError::NotFound) => {}
            Err(e) => return Err(e.into()),
        }
        let id = crate::ids::new_id().map_err(|e| Stop::Lost(format!("random: {e}")))?;
        let fields = crate::store::DatasetFields {
            name,
            description: "Events vendors refused for good, by sink (tags dead-letter.sink, \
                          dead-letter.job, dead-letter.status): docs/intake.md"
                .into(),
            partitioning: "DAY".into(),
            retention_days: None,
            promoted_tags: Vec::new(),
            team_ids: Vec::new(),
        };
        match self
            .state
            .store
            .create_dataset(self.organization.clone(), id, fields)
            .await
        {
            // Made meanwhile by another run: as good.
            Ok(_) | Err(StoreError::Duplicate(_)) => Ok(()),
            Err(e) => Err(e.into()),
        }
    }

    pub(super) fn run_options(&self) -> RunOptions {
        // A batch is at most `batchEvents`, a lake batch or one intake request (an agent
        // source reads whole requests).
        let batch = self
            .config()
            .batch_events
            .max(self.state.config.intake.max_events_per_request)
            .max(1);
        RunOptions {
            keep: 0,
            max_events: batch.max(self.state.config.lake.batch_rows),
            max_handled: batch
                .max(self.state.config.lake.batch_rows)
                .saturating_mul(64),
            timeout_ms: 60_000,
        }
    }

    /// The job's newest version, compiled: what this one hands over to.
    /// The run's name: `{job}-v{version}`, with `-p{shard}` when it has shards.
    fn run_name(&self) -> String {
        match self.shards {
            0 | 1 => format!("{}-v{}", self.job_id, self.version),
            _ => format!("{}-v{}-p{}", self.job_id, self.version, self.shard),
        }
    }

    /// The next version's pipeline, when it carries this run's state on: the same shards.
    pub(super) async fn next_pipeline(&self) -> Option<Pipeline> {
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
        let next_shards = crate::runs::partitions::of_version(
            self.state.intake.as_ref(),
            &next.meta.execution,
            &next.meta.processing,
            &graph,
        );
        // Other partitions: the next version's shards hold other keys; nothing carries on.
        if next_shards.count != self.shards {
            return None;
        }
        Pipeline::compile(&graph).ok()
    }
}

/// Where a new version's shard `shard` of `shards` starts, from the previous version's
/// shards' checkpoints: the same shard's positions and snapshot when it had as many shards;
/// otherwise each source's smallest position over them (read again from there: at least once)
/// and no snapshot (the previous version closed its windows, `next_pipeline`).
fn take_over(
    mut previous: Vec<crate::store::ShardCheckpoint>,
    shard: u32,
    shards: u32,
) -> (String, Option<Vec<u8>>) {
    if previous.is_empty() {
        return ("{}".to_owned(), None);
    }
    if previous.len() == shards as usize
        && let Some(at) = previous.iter().position(|p| p.shard == shard)
    {
        let same = previous.swap_remove(at);
        return (same.positions, same.snapshot);
    }
    let mut merged: BTreeMap<String, serde_json::Value> = BTreeMap::new();
    for p in previous {
        let Ok(positions) =
            serde_json::from_str::<BTreeMap<String, serde_json::Value>>(&p.positions)
        else {
            continue;
        };
        for (vertex, position) in positions {
            match merged.get(&vertex) {
                Some(kept) if !crate::runner::agent_source::before(&position, kept) => {}
                _ => {
                    merged.insert(vertex, position);
                }
            }
        }
    }
    (
        serde_json::to_string(&merged).unwrap_or_else(|_| "{}".into()),
        None,
    )
}
