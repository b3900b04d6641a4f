//! Runs a resolved job graph on events: vertices in dependency order, each edge carrying the
//! events of its source's port (fan-out copies, fan-in concatenates in `edges` order), every
//! vertex recorded (`docs/pipeline.md`, "What a run records").

use indexmap::IndexMap;
use web_time::Instant;

use super::RunError;
use super::report::{EdgeCount, KeptEvent, Run, RunInput, RunOptions, VertexRun};
use super::stages::{Stage, compile};
use crate::JobGraph;
use crate::edge::Edge;
use jobgraph_model::LogEvent;

#[cfg(feature = "snapshot")]
mod snapshot;
mod vertex;

#[cfg(feature = "snapshot")]
pub use snapshot::SnapshotError;

/// A job graph compiled for running.
#[derive(Debug, Clone)]
pub struct Pipeline {
    names: Vec<String>,
    types: Vec<String>,
    stages: Vec<Stage>,
    edges: Vec<(String, Edge, usize, usize)>,
    /// Per edge, the index of the port whose events it carries in its source's `ports`;
    /// `None` when it carries nothing (a port the stage does not have, or into a source).
    edge_ports: Vec<Option<usize>>,
    /// Per vertex, its output ports: `output`, then the stage's others; for a vertex that is
    /// not simulated, each other port its out-edges name (all carry the pass-through).
    ports: Vec<Vec<String>>,
    order: Vec<usize>,
    /// Per vertex, a hash of its type and fields: which state a snapshot may give it back.
    #[cfg(feature = "snapshot")]
    fingerprints: Vec<String>,
}

const DEFAULT_PORT_OUT: &str = "output";

impl Pipeline {
    /// Compiles a resolved graph: every vertex's stage, the edges, a dependency order.
    /// Fails on a `template-operation` (resolve first), a vertex an edge names that does not
    /// exist, a bad query or transform (naming the vertex), or a cycle.
    pub fn compile(graph: &JobGraph) -> Result<Pipeline, RunError> {
        let mut index = IndexMap::new();
        let mut names = Vec::new();
        let mut types = Vec::new();
        let mut stages = Vec::new();
        #[cfg(feature = "snapshot")]
        let mut fingerprints = Vec::new();
        for (i, vertex) in graph.vertices.iter().enumerate() {
            if vertex.is_template_operation() {
                return Err(RunError::Unresolved {
                    vertex: vertex.name().to_owned(),
                });
            }
            index.insert(vertex.name().to_owned(), i);
            names.push(vertex.name().to_owned());
            types.push(vertex.vertex_type().to_owned());
            #[cfg(feature = "snapshot")]
            fingerprints.push(snapshot::fingerprint(vertex.vertex_type(), vertex.fields()));
            stages.push(compile(
                vertex.name(),
                vertex.vertex_type(),
                vertex.fields(),
            )?);
        }
        let mut edges = Vec::new();
        for text in &graph.edges {
            let edge = crate::parse_edge(text).map_err(|e| RunError::Graph(e.to_string()))?;
            let find = |name: &str| {
                index.get(name).copied().ok_or_else(|| {
                    RunError::Graph(format!(
                        "edge `{text}` names vertex `{name}`, which is not in the graph"
                    ))
                })
            };
            let (from, to) = (find(&edge.from.vertex)?, find(&edge.to.vertex)?);
            edges.push((text.clone(), edge, from, to));
        }
        let order = order(&names, &edges)?;
        let mut ports: Vec<Vec<String>> = stages
            .iter()
            .map(|stage| {
                std::iter::once(DEFAULT_PORT_OUT)
                    .chain(stage.ports().iter().copied())
                    .map(str::to_owned)
                    .collect()
            })
            .collect();
        let mut edge_ports = Vec::with_capacity(edges.len());
        for (_, edge, from, to) in &edges {
            let port = edge.from.port.as_deref().unwrap_or(DEFAULT_PORT_OUT);
            let known = ports[*from].iter().position(|p| p == port);
            edge_ports.push(match known {
                _ if stages[*to].is_source() => None,
                Some(index) => Some(index),
                None if !stages[*from].simulated() => {
                    ports[*from].push(port.to_owned());
                    Some(ports[*from].len() - 1)
                }
                None => None,
            });
        }
        Ok(Pipeline {
            names,
            types,
            stages,
            edges,
            edge_ports,
            ports,
            order,
            #[cfg(feature = "snapshot")]
            fingerprints,
        })
    }

    /// Names of the sinks (types ending in `-sink`), in graph order.
    pub fn sinks(&self) -> Vec<&str> {
        self.names
            .iter()
            .zip(&self.types)
            .filter(|(_, t)| t.ends_with("-sink"))
            .map(|(n, _)| n.as_str())
            .collect()
    }

    /// The vertices with no incoming edge that a run in the service cannot feed, as (name,
    /// type), in graph order: types the engine does not run, and the agent sources
    /// (`datadog-log-agent-source`, …), which read a vendor's intake (`job:run` and the
    /// preview give them the run's events). A sink that nothing feeds is not one.
    ///
    /// ```
    /// use jobgraph_core::JobGraph;
    /// use jobgraph_core::pipeline::Pipeline;
    /// let graph: JobGraph = serde_json::from_value(serde_json::json!({
    ///     "vertices": [{"type": "datadog-log-agent-source", "name": "agent", "integrationId": "dd"},
    ///                  {"type": "logs-sync-sink", "name": "out"}],
    ///     "edges": ["agent -> out"]})).unwrap();
    /// let pipeline = Pipeline::compile(&graph).unwrap();
    /// assert_eq!(pipeline.unrun_sources(), [("agent", "datadog-log-agent-source")]);
    /// ```
    pub fn unrun_sources(&self) -> Vec<(&str, &str)> {
        let mut fed = vec![false; self.names.len()];
        for (_, _, _, to) in &self.edges {
            fed[*to] = true;
        }
        (0..self.names.len())
            .filter(|&i| {
                !fed[i]
                    && (matches!(self.stages[i], Stage::AgentSource)
                        || (!self.stages[i].simulated() && !self.types[i].ends_with("-sink")))
            })
            .map(|i| (self.names[i].as_str(), self.types[i].as_str()))
            .collect()
    }

    /// Runs the pipeline on `input`: a streaming run's one batch, its windows closed at the
    /// end of the input.
    pub fn run(&self, input: RunInput, options: &RunOptions) -> Result<Run, RunError> {
        Runner::new(self, options, Instant::now()).run(input)
    }

    /// Runs on `input` with the time limit counted from `started` (a streamed run's start).
    pub(crate) fn run_since(
        &self,
        input: RunInput,
        options: &RunOptions,
        started: Instant,
    ) -> Result<Run, RunError> {
        Runner::new(self, options, started).run(input)
    }

    /// Whether running the events in pieces, one after another, gives the same sinks as one
    /// run on all of them: no `logs-values-source` (its inline events would repeat), no
    /// vertex fed by two edges (fan-in concatenates edge by edge, not in input order), no
    /// `logs-event-sampler` (its bucket depends on every event before, and pieces run side
    /// by side) and no reducer or pattern matcher (their windows and patterns span the whole
    /// input).
    pub fn streamable(&self) -> bool {
        let mut fed = vec![0usize; self.names.len()];
        for (k, edge) in self.edges.iter().enumerate() {
            if self.edge_ports[k].is_some() {
                fed[edge.3] += 1;
            }
        }
        fed.iter().all(|n| *n <= 1)
            && !self.stages.iter().any(|s| {
                matches!(
                    s,
                    Stage::ValuesSource { .. } | Stage::Sampler(_) | Stage::Reduce(_)
                )
            })
    }
}

/// A dependency order (Kahn's algorithm, ready vertices in graph order); a cycle is an error.
fn order(names: &[String], edges: &[(String, Edge, usize, usize)]) -> Result<Vec<usize>, RunError> {
    let n = names.len();
    let mut pending = vec![0usize; n];
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (_, _, from, to) in edges {
        pending[*to] += 1;
        next[*from].push(*to);
    }
    let mut ready: std::collections::BTreeSet<usize> =
        (0..n).filter(|v| pending[*v] == 0).collect();
    let mut order = Vec::with_capacity(n);
    while let Some(v) = ready.pop_first() {
        order.push(v);
        for &w in &next[v] {
            pending[w] -= 1;
            if pending[w] == 0 {
                ready.insert(w);
            }
        }
    }
    if order.len() < n {
        let stuck: Vec<&str> = (0..n)
            .filter(|v| pending[*v] > 0)
            .map(|v| names[v].as_str())
            .collect();
        return Err(RunError::Graph(format!(
            "the graph has a cycle through {}: a run needs edges that never lead back",
            stuck.join(", ")
        )));
    }
    Ok(order)
}

/// What a stateful vertex keeps between the batches of a streaming run ([`Running`]).
pub(crate) enum StageState {
    /// Nothing (a stateless vertex, or one not reached yet).
    Idle,
    /// A sampler's bucket.
    Sampled(super::sampler::Level),
    /// A reducer's patterns and open window.
    Reducing(Box<super::reduce::Streaming>),
}

/// A pipeline run batch after batch, as a streaming job runs: each [`Running::push`] takes
/// the events its sources read since the last one and answers what reached the sinks. The
/// samplers' buckets and the reducers' patterns and open windows carry over from one batch to
/// the next, so that the batches together give the sinks what one run on all their events
/// gives, except for the reducers' last window, which [`Running::close_windows`] closes (a
/// run closes it at the end of its input). Inline events (`logs-values-source`) come with the
/// first batch only. Each batch has the run's limits (`maxEvents`, `maxHandled`, `timeoutMs`)
/// to itself; after a batch fails, the states are where the failure left them: start again.
///
/// ```
/// use jobgraph_core::pipeline::{Pipeline, RunInput, RunOptions, read_events};
/// let graph = serde_json::from_value(serde_json::json!({
///     "vertices": [
///         {"type": "logs-iceberg-table-source", "name": "in", "table": "logs"},
///         {"type": "logs-filter", "name": "errors",
///          "query": {"type": "simple-query", "query": "level:error"}},
///         {"type": "logs-sync-sink", "name": "out"}],
///     "edges": ["in -> errors", "errors -> out"]})).unwrap();
/// let mut running = Pipeline::compile(&graph).unwrap().start(RunOptions::default());
/// let batch = |text: &str| RunInput { events: read_events(text).unwrap(), ..Default::default() };
/// let first = running.push(batch(r#"{"message": "a", "tags": {"level": ["error"]}}"#)).unwrap();
/// let second = running.push(batch(r#"{"message": "b", "tags": {"level": ["info"]}}"#)).unwrap();
/// assert_eq!((first.sinks["out"].len(), second.sinks["out"].len()), (1, 0));
/// ```
pub struct Running {
    pipeline: Pipeline,
    options: RunOptions,
    states: Vec<StageState>,
    batches: u64,
    /// The vertices whose state a snapshot gave back.
    #[cfg(feature = "snapshot")]
    carried: Vec<String>,
}

impl std::fmt::Debug for Running {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Running")
            .field("batches", &self.batches)
            .finish_non_exhaustive()
    }
}

impl Pipeline {
    /// Starts a streaming run with `options` for each batch.
    pub fn start(&self, options: RunOptions) -> Running {
        Running {
            states: self.stages.iter().map(|_| StageState::Idle).collect(),
            pipeline: self.clone(),
            options,
            batches: 0,
            #[cfg(feature = "snapshot")]
            carried: Vec::new(),
        }
    }
}

impl Running {
    /// Runs one batch: `input` holds the events the sources read since the last batch.
    pub fn push(&mut self, input: RunInput) -> Result<Run, RunError> {
        self.step(input, false, &[])
    }

    /// Closes the reducers' open windows (their summaries flow through the vertices after
    /// them to the sinks): what the end of a run's input does, for a streaming run whose
    /// processing time passed the window's end, or that stops.
    pub fn close_windows(&mut self) -> Result<Run, RunError> {
        self.step(RunInput::default(), true, &[])
    }

    /// Closes the open windows of every reducer but those named in `keep_open`: before an
    /// update, the reducers the next version carries on keep their windows
    /// ([`Running::carried_by`]).
    pub fn close_windows_except(&mut self, keep_open: &[String]) -> Result<Run, RunError> {
        self.step(RunInput::default(), true, keep_open)
    }

    /// Events kept per vertex in each later batch's report ([`RunOptions::keep`]): what a
    /// live tap reads; 0 keeps none (the counts stay exact).
    pub fn set_keep(&mut self, keep: usize) {
        self.options.keep = keep;
    }

    /// Batches run so far.
    pub fn batches(&self) -> u64 {
        self.batches
    }

    fn step(
        &mut self,
        input: RunInput,
        closing: bool,
        keep_open: &[String],
    ) -> Result<Run, RunError> {
        let mut runner = Runner::new(&self.pipeline, &self.options, Instant::now());
        runner.states = Some(&mut self.states);
        runner.first = self.batches == 0;
        runner.closing = closing;
        runner.keep_open = keep_open;
        self.batches += 1;
        runner.run(input)
    }
}

struct Runner<'p> {
    pipeline: &'p Pipeline,
    options: &'p RunOptions,
    started: Instant,
    handled: usize,
    /// A streaming run's states ([`Running`]); `None` for one run on all the events.
    states: Option<&'p mut [StageState]>,
    /// Whether inline events are emitted (one run, or a streaming run's first batch).
    first: bool,
    /// Whether the reducers' open windows close after this batch (one run, at the end of its
    /// input; a streaming run's [`Running::close_windows`]).
    closing: bool,
    /// Reducers whose windows stay open when closing ([`Running::close_windows_except`]).
    keep_open: &'p [String],
}

/// Fails when more than `timeout_ms` passed since `started`.
pub(crate) fn time_left(started: Instant, timeout_ms: u64) -> Result<(), RunError> {
    if started.elapsed().as_millis() > u128::from(timeout_ms) {
        return Err(RunError::Limit(format!(
            "time limit of {timeout_ms} ms exceeded (raise timeoutMs)"
        )));
    }
    Ok(())
}

impl<'p> Runner<'p> {
    fn new(pipeline: &'p Pipeline, options: &'p RunOptions, started: Instant) -> Self {
        Runner {
            pipeline,
            options,
            started,
            handled: 0,
            states: None,
            first: true,
            closing: true,
            keep_open: &[],
        }
    }

    fn check_time(&self) -> Result<(), RunError> {
        time_left(self.started, self.options.timeout_ms)
    }

    fn run(mut self, mut input: RunInput) -> Result<Run, RunError> {
        let p = self.pipeline;
        let total = input.events.len() + input.tables.values().map(Vec::len).sum::<usize>();
        if total > self.options.max_events {
            return Err(RunError::Limit(format!(
                "more than {} input events ({total}) (raise maxEvents)",
                self.options.max_events
            )));
        }
        let n = p.names.len();
        let mut notes_before: Vec<Vec<String>> = vec![Vec::new(); n];
        for (k, e) in p.edges.iter().enumerate() {
            if p.stages[e.3].is_source() {
                notes_before[e.3].push(format!(
                    "edge `{}`: a source only emits; nothing is carried to it",
                    e.0
                ));
            } else if p.edge_ports[k].is_none() {
                notes_before[e.2].push(format!(
                    "port {} is not simulated: edge `{}` carries no events",
                    e.1.from.port.as_deref().unwrap_or(DEFAULT_PORT_OUT),
                    e.0
                ));
            }
        }
        // How many edges still have to take each port's events: the last one takes them, the
        // others copy them.
        let mut takers: Vec<Vec<usize>> =
            p.ports.iter().map(|ports| vec![0; ports.len()]).collect();
        for (k, e) in p.edges.iter().enumerate() {
            if let Some(port) = p.edge_ports[k] {
                takers[e.2][port] += 1;
            }
        }
        // Sources that share the run's events each copy them, but the last takes them.
        let mut event_takers = p
            .stages
            .iter()
            .filter(|s| match s {
                Stage::TableSource { table, .. } => {
                    table.as_ref().is_none_or(|t| !input.tables.contains_key(t))
                }
                Stage::AgentSource => true,
                _ => false,
            })
            .count();
        let mut outputs: Vec<Vec<Option<Vec<LogEvent>>>> = p
            .ports
            .iter()
            .map(|ports| vec![None; ports.len()])
            .collect();
        let mut records: Vec<Option<VertexRun>> = vec![None; n];
        let mut sinks = IndexMap::new();
        let mut edge_counts = vec![0usize; p.edges.len()];
        for &v in &p.order {
            self.check_time()?;
            let stage = &p.stages[v];
            let mut notes = std::mem::take(&mut notes_before[v]);
            if !stage.simulated() {
                notes.push(format!("not simulated: {}", p.types[v]));
            }
            let mut events = Vec::new();
            for (k, e) in p.edges.iter().enumerate() {
                let Some(port) = p.edge_ports[k].filter(|_| e.3 == v) else {
                    continue;
                };
                let from = e.2;
                takers[from][port] -= 1;
                let carried = if takers[from][port] == 0 {
                    outputs[from][port].take().unwrap_or_default()
                } else {
                    outputs[from][port].clone().unwrap_or_default()
                };
                edge_counts[k] = carried.len();
                if events.is_empty() {
                    events = carried;
                } else {
                    events.extend(carried);
                }
            }
            let events_in = events.len();
            self.handled += events_in;
            if self.handled > self.options.max_handled {
                return Err(RunError::Limit(format!(
                    "more than {} events handled by all vertices together (raise maxHandled)",
                    self.options.max_handled
                )));
            }
            let mut record = VertexRun {
                name: p.names[v].clone(),
                vertex_type: p.types[v].clone(),
                simulated: stage.simulated(),
                notes,
                events_in,
                events_out: 0,
                events_by_port: IndexMap::new(),
                events_dropped: 0,
                output: Vec::new(),
                dropped: Vec::new(),
                patterns: Vec::new(),
            };
            let mut others = Vec::new();
            let out = self.stage(
                v,
                events,
                &mut input,
                &mut event_takers,
                &mut record,
                &mut others,
            )?;
            record.events_out = out.len();
            let ports = &p.ports[v];
            for (i, port) in ports.iter().enumerate() {
                // Ports a stage does not fill (every other port of a vertex not simulated)
                // carry its output.
                let count = match i {
                    0 => out.len(),
                    _ => others.get(i - 1).map_or(out.len(), Vec::len),
                };
                record.events_by_port.insert(port.clone(), count);
            }
            for (i, events) in others.into_iter().enumerate() {
                if takers[v][i + 1] > 0 {
                    outputs[v][i + 1] = Some(events);
                }
            }
            for i in 1..ports.len() {
                if outputs[v][i].is_none() && takers[v][i] > 0 {
                    outputs[v][i] = Some(out.clone());
                }
            }
            if record.output.is_empty() {
                record.output = out
                    .iter()
                    .take(self.options.keep)
                    .map(|event| KeptEvent {
                        event: event.clone(),
                        change: None,
                        dropped_by: None,
                    })
                    .collect();
            }
            if p.types[v].ends_with("-sink") {
                // A sink's events are the run's result; copied only when edges carry them on.
                if takers[v][0] > 0 {
                    outputs[v][0] = Some(out.clone());
                }
                sinks.insert(p.names[v].clone(), out);
            } else if takers[v][0] > 0 {
                outputs[v][0] = Some(out);
            }
            records[v] = Some(record);
        }
        Ok(Run {
            vertices: records.into_iter().flatten().collect(),
            sinks,
            edges: p
                .edges
                .iter()
                .zip(edge_counts)
                .map(|((text, ..), events)| EdgeCount {
                    edge: text.clone(),
                    events,
                })
                .collect(),
        })
    }
}

#[cfg(test)]
mod running_tests;
#[cfg(test)]
mod tests;
