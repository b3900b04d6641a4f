//! The counters of a run: what `pipelineStatus` shows and `/metrics` exports.

use indexmap::IndexMap;
use jobgraph_core::pipeline::{LogEvent, Run};
use serde_json::{Value, json};

/// A vertex's counters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct VertexCounts {
    pub type_name: String,
    pub events_in: u64,
    pub events_out: u64,
    pub bytes_in: u64,
    pub bytes_out: u64,
}

/// A vendor sink's counters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct DeliveryCounts {
    /// Events the vendor took.
    pub delivered: u64,
    /// Requests the vendor took.
    pub requests: u64,
    /// Attempts that failed and were tried again.
    pub retries: u64,
    /// Events the vendor refused for good (in the `dead-letters` dataset).
    pub dead_letters: u64,
    /// Since when delivery has been failing (ms since the epoch; `None`: it is not).
    pub failing_since_ms: Option<i64>,
    /// The last failure, as the vendor answered it.
    pub last_error: Option<String>,
}

/// A run's counters, since this owner started it (a takeover starts them again).
#[derive(Debug, Clone, Default)]
pub(crate) struct RunStatus {
    pub state: String,
    /// The job's name.
    pub name: String,
    /// The replica driving it (its runner's id, logged when it starts).
    pub replica: String,
    pub vertices: IndexMap<String, VertexCounts>,
    /// Events read by the sources.
    pub events_in: u64,
    pub bytes_in: u64,
    /// Events written by the sinks.
    pub events_out: u64,
    pub bytes_out: u64,
    /// Batches that failed.
    pub errors: u64,
    pub checkpoints: u64,
    pub last_checkpoint_ms: Option<i64>,
    /// The newest event time read (ms since the epoch).
    pub newest_event_ms: Option<i64>,
    /// Since when the sources have had data waiting (ms since the epoch; `None`: caught up).
    pub behind_since_ms: Option<i64>,
    /// The vendor sinks' deliveries, by vertex.
    pub delivery: IndexMap<String, DeliveryCounts>,
}

/// The bytes an event stands for: its message, attributes and tags as text.
pub(crate) fn event_bytes(event: &LogEvent) -> u64 {
    let attributes = event.attributes.as_ref().map_or(0, |a| a.get().len());
    let tags: usize = event
        .tags
        .iter()
        .map(|(k, v)| k.len() + v.iter().map(String::len).sum::<usize>())
        .sum();
    (event.message().len() + attributes + tags) as u64
}

impl RunStatus {
    /// Counts one batch's run: every vertex's events in and out, bytes at the sinks.
    pub(crate) fn count(&mut self, run: &Run, sinks_bytes: &[(String, u64)]) {
        for vertex in &run.vertices {
            let counts = self.vertices.entry(vertex.name.clone()).or_default();
            if counts.type_name.is_empty() {
                counts.type_name = vertex.vertex_type.clone();
            }
            counts.events_in += vertex.events_in as u64;
            counts.events_out += vertex.events_out as u64;
        }
        for (sink, bytes) in sinks_bytes {
            if let Some(counts) = self.vertices.get_mut(sink) {
                counts.bytes_in += bytes;
            }
        }
    }

    /// The counters as `pipelineStatus` shows them (with `health` and `message` added by the
    /// answer).
    pub(crate) fn to_json(&self, now_ms: i64) -> Value {
        let vertices: Vec<Value> = self
            .vertices
            .iter()
            .map(|(name, c)| {
                json!({"name": name, "type": c.type_name, "eventsIn": c.events_in,
                       "eventsOut": c.events_out, "bytesIn": c.bytes_in, "bytesOut": c.bytes_out})
            })
            .collect();
        json!({
            "replica": self.replica,
            "eventsIn": self.events_in,
            "bytesIn": self.bytes_in,
            "eventsOut": self.events_out,
            "bytesOut": self.bytes_out,
            "errors": self.errors,
            "checkpoints": self.checkpoints,
            "lastCheckpointAt": self.last_checkpoint_ms.map(crate::ids::iso8601),
            "lag": {
                "eventTimeMs": self.newest_event_ms.map(|t| (now_ms - t).max(0)),
                "processingTimeMs": self.behind_since_ms.map_or(0, |t| (now_ms - t).max(0)),
            },
            "vertices": vertices,
            "delivery": self.delivery.iter().map(|(vertex, d)| json!({
                "vertex": vertex, "delivered": d.delivered, "requests": d.requests,
                "retries": d.retries, "deadLetters": d.dead_letters,
                "failingSince": d.failing_since_ms.map(crate::ids::iso8601),
                "lastError": d.last_error,
            })).collect::<Vec<_>>(),
        })
    }
}
