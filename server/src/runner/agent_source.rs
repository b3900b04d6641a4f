//! A run's agent source (`datadog-log-agent-source`, `otel-log-source`,
//! `splunk-log-agent-source`, …): the events agents sent to its integration (`docs/intake.md`),
//! read from the intake log after the position of the run's last checkpoint. The log keeps
//! what a running job has not checkpointed past, so a restart reads again from there: at least
//! once into the engine, exactly once into the lake (the checkpoint holds both). On JetStream
//! (`intake.nats`) the reader is a durable consumer, acknowledged at each checkpoint.

use jobgraph_core::pipeline::LogEvent;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::intake_log::partition::{integration_of, stream_of};
use crate::intake_log::{Intake, IntakeLogError, Reader};
use crate::runner::source::Read;
use crate::state::AppState;

/// The source types that read agents' logs, and the integration type each names.
pub(crate) const AGENT_SOURCES: &[(&str, &str)] = &[
    ("datadog-log-agent-source", "datadog"),
    ("otel-log-source", "otlp"),
    ("splunk-log-agent-source", "splunk"),
    ("newrelic-log-agent-source", "newrelic"),
    ("sumologic-log-agent-source", "sumo"),
];

/// Where an agent source is: every entry of its stream up to `seq` is read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct AgentPosition {
    /// The integration whose stream it reads.
    pub stream: String,
    pub seq: u64,
}

/// Whether the agent position `a` is before `b` (anything else is never before).
pub(crate) fn before(a: &Value, b: &Value) -> bool {
    match (AgentPosition::deserialize(a), AgentPosition::deserialize(b)) {
        (Ok(a), Ok(b)) => a.seq < b.seq,
        _ => false,
    }
}

/// An agent source of a running job.
pub(crate) struct AgentFeed {
    /// The vertex.
    pub vertex: String,
    log: Intake,
    /// Its reader, once started.
    reader: Option<Reader>,
    /// The reader's name (JetStream's durable consumer): `{job}-v{version}-{vertex}`.
    name: String,
    position: AgentPosition,
    max_events: usize,
}

impl AgentFeed {
    /// The source `vertex` (of type `kind`) of a job of `organization`, in the run (shard)
    /// named `run`; `partition`: the shard's partition of the integration's events (`None`:
    /// it reads them all).
    pub(crate) fn plan(
        state: &AppState,
        organization: &str,
        run: &str,
        partition: Option<u32>,
        vertex: &str,
        kind: &str,
        fields: &Map<String, Value>,
    ) -> Result<AgentFeed, String> {
        let wanted = AGENT_SOURCES
            .iter()
            .find(|(k, _)| *k == kind)
            .map_or("", |(_, t)| *t);
        let Some(id) = fields.get("integrationId").and_then(Value::as_str) else {
            return Err(format!(
                "vertex {vertex} ({kind}): `integrationId` is missing: name the {wanted} integration whose agents' logs it reads (`jobgraph integration:list`)"
            ));
        };
        let integrations = &state.config.integrations;
        let Some(spec) = integrations
            .iter()
            .find(|s| s.id == id && s.visible_to(organization))
        else {
            return Err(format!(
                "vertex {vertex} ({kind}): no integration {id:?} in this organization (`jobgraph integration:list` lists them; they are declared in the service's --config)"
            ));
        };
        let found = spec.public_type().unwrap_or("");
        if found != wanted {
            return Err(format!(
                "vertex {vertex} ({kind}): integration {id:?} is of type {:?}, not {wanted}: use the source of its type, or a {wanted} integration",
                spec.kind
            ));
        }
        if matches!(wanted, "newrelic" | "sumo") {
            return Err(format!(
                "vertex {vertex} ({kind}): this service takes logs from the Datadog Agent, OpenTelemetry and Splunk forwarders (docs/intake.md); intake from {wanted} agents is not built"
            ));
        }
        if spec.ingest_key.is_none() {
            return Err(format!(
                "vertex {vertex} ({kind}): integration {id:?} has no `ingestKey` in the service's --config, so no agent can send it logs: give it one (docs/intake.md)"
            ));
        }
        let Some(log) = state.intake.clone() else {
            return Err(format!(
                "vertex {vertex} ({kind}): this service has no intake log (it runs without a data folder)"
            ));
        };
        Ok(AgentFeed {
            vertex: vertex.to_owned(),
            log,
            reader: None,
            name: format!("{run}-{vertex}"),
            position: AgentPosition {
                stream: stream_of(id, partition),
                seq: 0,
            },
            max_events: state.config.runner.batch_events.max(1),
        })
    }

    /// Starts where a checkpoint left it, or (`None`, or a checkpoint of another
    /// integration's) at the oldest event the log keeps. What the log no longer keeps is
    /// skipped. A checkpoint of another partition of the same integration, or of all of it,
    /// is a place in the same stream of sequences: it starts there.
    pub(crate) async fn start_at(&mut self, position: Option<&Value>) -> Result<(), String> {
        let _ = self.log.refresh().await;
        let info = self.log.info(&self.position.stream);
        let at = position
            .and_then(|p| serde_json::from_value::<AgentPosition>(p.clone()).ok())
            .filter(|p| integration_of(&p.stream).0 == integration_of(&self.position.stream).0)
            .map(|p| p.seq);
        self.position.seq = at.unwrap_or(0).max(info.first.saturating_sub(1));
        self.reader = None;
        self.open().await
    }

    /// Opens its reader at its position. A JetStream log that cannot be reached now is not
    /// the job's failure: the reader is opened again at the next read (a warning is logged).
    async fn open(&mut self) -> Result<(), String> {
        let after = (self.position.seq > 0).then_some(self.position.seq);
        match self
            .log
            .reader(&self.position.stream, &self.name, after)
            .await
        {
            Ok(reader) => {
                self.reader = Some(reader);
                Ok(())
            }
            Err(e @ IntakeLogError::Nats { .. }) => {
                tracing::warn!(vertex = %self.vertex, "runner: {e} (trying again)");
                Ok(())
            }
            Err(e) => Err(format!("vertex {}: {e}", self.vertex)),
        }
    }

    /// Its position is checkpointed: a JetStream reader acknowledges what it read.
    pub(crate) async fn checkpointed(&mut self) {
        if let Some(reader) = &mut self.reader
            && let Err(e) = reader.checkpointed().await
        {
            // Not acknowledged: delivered again, and skipped by position.
            tracing::warn!(vertex = %self.vertex, "runner: {e}");
        }
    }

    /// The position after the events read so far.
    pub(crate) fn position(&self) -> Value {
        serde_json::to_value(&self.position).unwrap_or(Value::Null)
    }

    /// Whether entries are kept that it has not read.
    pub(crate) fn behind(&self) -> bool {
        self.reader
            .as_ref()
            .is_some_and(|r| r.behind(self.position.seq))
    }

    /// Events: the next entries of the stream, about `runner.batchEvents` of them.
    pub(crate) async fn read(&mut self) -> Result<Read, String> {
        if self.reader.is_none() {
            self.open().await?;
        }
        let Some(reader) = &mut self.reader else {
            return Ok(Read::Idle);
        };
        let entries = match reader.read(self.position.seq, self.max_events).await {
            Ok(entries) => entries,
            Err(e @ IntakeLogError::Nats { .. }) => {
                // Opened again at the position at the next read.
                tracing::warn!(vertex = %self.vertex, "runner: {e} (trying again)");
                self.reader = None;
                return Ok(Read::Idle);
            }
            Err(e) => return Err(format!("vertex {}: {e}", self.vertex)),
        };
        let Some(last) = entries.last().map(|e| e.seq) else {
            return Ok(Read::Idle);
        };
        let mut events = Vec::with_capacity(entries.iter().map(|e| e.events as usize).sum());
        for entry in &entries {
            for line in entry.ndjson.split(|b| *b == b'\n') {
                if line.is_empty() {
                    continue;
                }
                let event = serde_json::from_slice::<Value>(line)
                    .map_err(|e| e.to_string())
                    .and_then(|v| LogEvent::from_value(v).map_err(|e| e.to_string()))
                    .map_err(|e| {
                        format!(
                            "vertex {}: entry {} of the intake log of {:?} does not read: {e}",
                            self.vertex, entry.seq, self.position.stream
                        )
                    })?;
                events.push(event);
            }
        }
        self.position.seq = last;
        Ok(Read::Events(events))
    }
}
