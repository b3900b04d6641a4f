//! Runs a resolved job graph on events: vertices in dependency order, each edge carrying its
//! source's output (fan-out copies, fan-in concatenates in `edges` order), every vertex
//! recorded (`docs/pipeline.md`, "What a run records").

use indexmap::IndexMap;
use web_time::Instant;

use super::RunError;
#[cfg(feature = "grok")]
use super::grok_stage;
use super::report::{Change, EdgeCount, KeptEvent, Run, RunInput, RunOptions, VertexRun};
use super::stages::{Stage, apply, compile};
use crate::JobGraph;
use crate::edge::Edge;
use jobgraph_model::{LogEvent, Tags};

/// A job graph compiled for running.
#[derive(Debug, Clone)]
pub struct Pipeline {
    names: Vec<String>,
    types: Vec<String>,
    stages: Vec<Stage>,
    edges: Vec<(String, Edge, usize, usize)>,
    order: Vec<usize>,
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
        for (i, vertex) in graph.vertices.iter().enumerate() {
            if vertex.is_template_operation() {
                return Err(RunError::Unresolved {
                    vertex: vertex.name().to_owned(),
                });
            }
            index.insert(vertex.name().to_owned(), i);
            names.push(vertex.name().to_owned());
            types.push(vertex.vertex_type().to_owned());
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
        Ok(Pipeline {
            names,
            types,
            stages,
            edges,
            order,
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

    /// The vertices with no incoming edge whose type the engine does not run, as (name,
    /// type), in graph order: sources it cannot read, which would yield nothing. A sink that
    /// nothing feeds is not one.
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
                !fed[i] && !self.stages[i].simulated() && !self.types[i].ends_with("-sink")
            })
            .map(|i| (self.names[i].as_str(), self.types[i].as_str()))
            .collect()
    }

    /// Runs the pipeline on `input`.
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
    /// reducer or pattern matcher (their windows and patterns span the whole input) and no
    /// vertex fed by two edges (fan-in concatenates edge by edge, not in input order).
    pub fn streamable(&self) -> bool {
        let mut fed = vec![0usize; self.names.len()];
        for edge in self.edges.iter().filter(|e| self.carries(e)) {
            fed[edge.3] += 1;
        }
        fed.iter().all(|n| *n <= 1)
            && !self
                .stages
                .iter()
                .any(|s| matches!(s, Stage::ValuesSource { .. } | Stage::Reduce(_)))
    }

    /// Whether an edge carries events: its source's `output` (any port of a vertex that is
    /// not simulated), and nothing into a source, which only emits.
    fn carries(&self, (_, edge, from, to): &(String, Edge, usize, usize)) -> bool {
        !self.stages[*to].is_source()
            && (!self.stages[*from].simulated()
                || edge
                    .from
                    .port
                    .as_deref()
                    .is_none_or(|port| port == DEFAULT_PORT_OUT))
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

struct Runner<'p> {
    pipeline: &'p Pipeline,
    options: &'p RunOptions,
    started: Instant,
    handled: usize,
}

impl<'p> Runner<'p> {
    fn new(pipeline: &'p Pipeline, options: &'p RunOptions, started: Instant) -> Self {
        Runner {
            pipeline,
            options,
            started,
            handled: 0,
        }
    }

    fn check_time(&self) -> Result<(), RunError> {
        if self.started.elapsed().as_millis() > u128::from(self.options.timeout_ms) {
            return Err(RunError::Limit(format!(
                "time limit of {} ms exceeded (raise timeoutMs)",
                self.options.timeout_ms
            )));
        }
        Ok(())
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
        let carries = |e: &(String, Edge, usize, usize)| p.carries(e);
        let mut notes_before: Vec<Vec<String>> = vec![Vec::new(); n];
        for e in &p.edges {
            if p.stages[e.3].is_source() {
                notes_before[e.3].push(format!(
                    "edge `{}`: a source only emits; nothing is carried to it",
                    e.0
                ));
            } else if !carries(e) {
                notes_before[e.2].push(format!(
                    "port {} is not simulated: edge `{}` carries no events",
                    e.1.from.port.as_deref().unwrap_or(DEFAULT_PORT_OUT),
                    e.0
                ));
            }
        }
        // How many edges still have to take each vertex's output: the last one takes it, the
        // others copy it.
        let mut takers = vec![0usize; n];
        for e in &p.edges {
            if carries(e) {
                takers[e.2] += 1;
            }
        }
        // Table sources that share the run's events each copy them, but the last takes them.
        let mut event_takers = p
            .stages
            .iter()
            .filter(|s| matches!(s, Stage::TableSource { table, .. } if table.as_ref().is_none_or(|t| !input.tables.contains_key(t))))
            .count();
        let mut outputs: Vec<Option<Vec<LogEvent>>> = vec![None; n];
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
                if e.3 != v {
                    continue;
                }
                if !carries(e) {
                    continue;
                }
                let from = e.2;
                takers[from] -= 1;
                let carried = if takers[from] == 0 {
                    outputs[from].take().unwrap_or_default()
                } else {
                    outputs[from].clone().unwrap_or_default()
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
                events_dropped: 0,
                output: Vec::new(),
                dropped: Vec::new(),
                patterns: Vec::new(),
            };
            let out = self.stage(stage, events, &mut input, &mut event_takers, &mut record)?;
            record.events_out = out.len();
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
                if takers[v] > 0 {
                    outputs[v] = Some(out.clone());
                }
                sinks.insert(p.names[v].clone(), out);
            } else if takers[v] > 0 {
                outputs[v] = Some(out);
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

    fn stage(
        &mut self,
        stage: &Stage,
        mut events: Vec<LogEvent>,
        input: &mut RunInput,
        event_takers: &mut usize,
        record: &mut VertexRun,
    ) -> Result<Vec<LogEvent>, RunError> {
        let keep = self.options.keep;
        match stage {
            Stage::TableSource { table, query } => {
                let source = match table.as_ref().and_then(|t| input.tables.get(t)) {
                    Some(events) => events.clone(),
                    None => {
                        *event_takers -= 1;
                        if *event_takers == 0 {
                            std::mem::take(&mut input.events)
                        } else {
                            input.events.clone()
                        }
                    }
                };
                self.emit(source, query.as_ref(), record, keep)
            }
            Stage::ValuesSource {
                events: inline,
                query,
            } => self.emit(inline.clone(), query.as_ref(), record, keep),
            Stage::Filter { query, inverted } => {
                self.filter(
                    &mut events,
                    query,
                    *inverted,
                    &record.name.clone(),
                    record,
                    keep,
                )?;
                Ok(events)
            }
            Stage::Transform { actions, skipped } => {
                for kind in skipped {
                    record.notes.push(format!(
                        "transform `{kind}` is not simulated: events pass it unchanged"
                    ));
                }
                for (i, event) in events.iter_mut().enumerate() {
                    if i % 4096 == 4095 {
                        self.check_time()?;
                    }
                    if i < keep {
                        let before = event.tags.clone();
                        apply(actions, event);
                        record.output.push(KeptEvent {
                            change: Some(diff(&before, &event.tags)),
                            event: event.clone(),
                            dropped_by: None,
                        });
                    } else {
                        apply(actions, event);
                    }
                }
                Ok(events)
            }
            #[cfg(feature = "grok")]
            Stage::Grok(grok) => {
                let name = record.name.clone();
                for (i, event) in events.iter_mut().enumerate() {
                    if i % 4096 == 4095 {
                        self.check_time()?;
                    }
                    if i < keep {
                        let before = event.tags.clone();
                        grok_stage::apply(grok, &name, event)?;
                        record.output.push(KeptEvent {
                            change: Some(diff(&before, &event.tags)),
                            event: event.clone(),
                            dropped_by: None,
                        });
                    } else {
                        grok_stage::apply(grok, &name, event)?;
                    }
                }
                Ok(events)
            }
            Stage::Reduce(reducer) => {
                let name = record.name.clone();
                let reduced = reducer.run(&name, events, &mut || self.check_time())?;
                record.patterns = reduced.patterns;
                Ok(reduced.events)
            }
            Stage::Sink | Stage::Pass => Ok(events),
        }
    }

    /// A source's events, filtered by its own query when it has one.
    fn emit(
        &self,
        mut source: Vec<LogEvent>,
        query: Option<&super::Query>,
        record: &mut VertexRun,
        keep: usize,
    ) -> Result<Vec<LogEvent>, RunError> {
        record.events_in = source.len();
        if let Some(query) = query {
            let name = record.name.clone();
            self.filter(&mut source, query, false, &name, record, keep)?;
        }
        Ok(source)
    }

    fn filter(
        &self,
        events: &mut Vec<LogEvent>,
        query: &super::Query,
        inverted: bool,
        name: &str,
        record: &mut VertexRun,
        keep: usize,
    ) -> Result<(), RunError> {
        let mut seen = 0usize;
        let mut timed_out = false;
        let started = self.started;
        let limit = u128::from(self.options.timeout_ms);
        events.retain(|event| {
            seen += 1;
            if seen.is_multiple_of(4096) && started.elapsed().as_millis() > limit {
                timed_out = true;
            }
            let kept = query.matches(event) != inverted;
            if !kept {
                record.events_dropped += 1;
                if record.dropped.len() < keep {
                    record.dropped.push(KeptEvent {
                        event: event.clone(),
                        change: None,
                        dropped_by: Some(name.to_owned()),
                    });
                }
            }
            kept
        });
        if timed_out {
            self.check_time()?;
        }
        Ok(())
    }
}

/// Tag values in `after` and not `before` (added), and the reverse (removed).
fn diff(before: &Tags, after: &Tags) -> Change {
    let mut change = Change::default();
    for (key, values) in after {
        let old = before.get(key);
        let added: Vec<String> = values
            .iter()
            .filter(|v| old.is_none_or(|o| !o.contains(v)))
            .cloned()
            .collect();
        if !added.is_empty() {
            change.added.insert(key.clone(), added);
        }
    }
    for (key, values) in before {
        let new = after.get(key);
        let removed: Vec<String> = values
            .iter()
            .filter(|v| new.is_none_or(|n| !n.contains(v)))
            .cloned()
            .collect();
        if !removed.is_empty() {
            change.removed.insert(key.clone(), removed);
        }
    }
    change
}
