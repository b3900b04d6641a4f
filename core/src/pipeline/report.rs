//! What a run starts from and records: its options and input, and for every vertex the
//! events in and out, the first ones kept with what the vertex changed (`docs/pipeline.md`,
//! "What a run records").

use indexmap::IndexMap;
use serde::Serialize;

use jobgraph_model::{LogEvent, Tags};

/// Bounds of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunOptions {
    /// Events kept per vertex in the report (counts are always exact); default 100.
    pub keep: usize,
    /// Input events (all sources together) at most; default 1 000 000.
    pub max_events: usize,
    /// Events handled by all vertices together at most; default 10 000 000.
    pub max_handled: usize,
    /// Wall-clock time, ms; default 10 000.
    pub timeout_ms: u64,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            keep: 100,
            max_events: 1_000_000,
            max_handled: 10_000_000,
            timeout_ms: 10_000,
        }
    }
}

impl RunOptions {
    /// The bounds of a run on a person's own machine and files (what `jobgraph job:run` and
    /// `job:draft` default to): 10 000 000 input events, 16 events handled per input event,
    /// ten minutes. The defaults ([`RunOptions::default`]) are a shared service's and a
    /// browser tab's.
    ///
    /// ```
    /// use jobgraph_core::pipeline::RunOptions;
    ///
    /// let local = RunOptions::local().with_max_events(1000);
    /// assert_eq!(local.max_handled, 1000 * RunOptions::HANDLED_PER_EVENT);
    /// assert!(local.timeout_ms > RunOptions::default().timeout_ms);
    /// ```
    pub fn local() -> RunOptions {
        RunOptions {
            keep: 100,
            max_events: 10_000_000,
            max_handled: 10_000_000 * Self::HANDLED_PER_EVENT,
            timeout_ms: 600_000,
        }
    }

    /// Events all vertices together may handle per input event, when only the input is bounded
    /// (a run's events fan out over its vertices).
    pub const HANDLED_PER_EVENT: usize = 16;

    /// These options with at most `max_events` input events, and handled events bounded in
    /// proportion ([`RunOptions::HANDLED_PER_EVENT`]).
    pub fn with_max_events(self, max_events: usize) -> RunOptions {
        RunOptions {
            max_events,
            max_handled: max_events.saturating_mul(Self::HANDLED_PER_EVENT),
            ..self
        }
    }
}

/// The events a run starts from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunInput {
    /// Events every `logs-iceberg-table-source` receives (unless `tables` names its table).
    pub events: Vec<LogEvent>,
    /// Events by table, for sources whose `table` is here.
    pub tables: IndexMap<String, Vec<LogEvent>>,
}

/// What a vertex did to one kept event.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Change {
    /// Tag values the vertex added.
    #[serde(skip_serializing_if = "Tags::is_empty")]
    pub added: Tags,
    /// Tag values the vertex removed.
    #[serde(skip_serializing_if = "Tags::is_empty")]
    pub removed: Tags,
}

/// A kept event and what the vertex did to it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeptEvent {
    /// The event as the vertex emitted it (or, when dropped, as it arrived).
    pub event: LogEvent,
    /// Tags added and removed here (transforms only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change: Option<Change>,
    /// Set when the vertex dropped the event: its name.
    #[serde(rename = "droppedBy", skip_serializing_if = "Option::is_none")]
    pub dropped_by: Option<String>,
}

/// The record of one vertex.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VertexRun {
    /// The vertex name.
    pub name: String,
    /// Its type.
    #[serde(rename = "type")]
    pub vertex_type: String,
    /// Whether the engine knows what this type does (else events pass through).
    pub simulated: bool,
    /// What the run noticed here (`not simulated: grok-parser`, …).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Events in.
    pub events_in: usize,
    /// Events out (on `output`).
    pub events_out: usize,
    /// Events out by output port (`eventsByPort`): `output` (the same as `events_out`), then
    /// each other port the vertex has (`logs-branch`: `else`), in that order. A vertex that is
    /// not simulated lists each port its out-edges name, all with its pass-through. Events
    /// leave by a port even when no edge takes them.
    pub events_by_port: IndexMap<String, usize>,
    /// Events dropped (filters).
    pub events_dropped: usize,
    /// The first `keep` events out, with their changes.
    pub output: Vec<KeptEvent>,
    /// The first `keep` events dropped.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dropped: Vec<KeptEvent>,
    /// The patterns a `log-reducer` or `pattern-matcher` found, most frequent first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub patterns: Vec<super::PatternReport>,
}

/// The result of a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Run {
    /// Every vertex, in graph order.
    pub vertices: Vec<VertexRun>,
    /// Every sink (a type ending in `-sink`): all the events that reached it, in order.
    pub sinks: IndexMap<String, Vec<LogEvent>>,
    /// Events carried by each edge, in `edges` order (`from[:port] -> to[:port]` as written).
    pub edges: Vec<EdgeCount>,
}

/// Events on one edge.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EdgeCount {
    /// The edge as written.
    pub edge: String,
    /// Events it carried.
    pub events: usize,
}
