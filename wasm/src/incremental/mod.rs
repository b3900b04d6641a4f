//! Incremental runs on an [`EventSet`](crate::pipeline::EventSet) (`runJob(job, set,
//! {incremental: true})`): a live preview re-runs a graph after each keystroke in one vertex's
//! settings, and the vertices upstream of it give the same events as last time. Those are not
//! run again: their events on the edges into the changed part are kept from the run before.
//!
//! How:
//! - Every vertex gets a **key**: the SHA-256 of its JSON and of the keys and ports of its
//!   in-edges, in `edges` order (so a vertex's key changes when it, or anything upstream of
//!   it, changes). The events of the set, the run's tables and options are the same for every
//!   run of one cache (`salt`; another salt empties it).
//! - A run whose graph differs from the previous one in some vertices splits the graph: the
//!   **prefix** (the vertices whose key the previous graph had too: unchanged, and so is
//!   everything upstream of them) runs with a synthetic sink on each edge that leaves it, and
//!   its records, sink events and the events of those edges are kept; the **suffix** (the
//!   rest) runs with a synthetic source per kept edge stream, fed by the run's tables.
//! - The next run whose prefix vertices are all kept runs its suffix only.
//! - The two records are merged into the one a whole run gives: vertices in graph order, edges
//!   in `edges` order with their text as written, sinks in the run's order, notes naming the
//!   edges as written. Anything unusual (an error in either part, a limit, a cut edge into a
//!   source, names that clash with the synthetic ones) runs the whole graph instead, so errors
//!   are the whole run's. `tests/js/incremental.node.test.mjs` compares every conformance case,
//!   each vertex edited in turn, with whole runs, byte for byte.

mod keys;

use std::collections::HashMap;

use indexmap::IndexMap;
use jobgraph_core::JobGraph;
use jobgraph_core::Vertex;
use jobgraph_core::pipeline::{
    EdgeCount, LogEvent, Pipeline, Run, RunError, RunInput, RunOptions, VertexRun,
};
use serde_json::{Map, Value};

pub(crate) use keys::salt;
use keys::{Analysis, CUT_SINK, CUT_SOURCE, CUT_TABLE, Key, Outlet, analyse, inlet, outlet};

/// What a cache keeps between runs of one event set.
#[derive(Default)]
pub(crate) struct RunCache {
    /// The options and tables the kept results were made with.
    salt: Option<Key>,
    /// The vertex keys of the previous run's graph.
    previous: Vec<Key>,
    /// Vertices of the kept prefix: their records (by key and out-edges, see `record_key`) and
    /// a sink's events.
    records: HashMap<Key, (VertexRun, Option<Vec<LogEvent>>)>,
    /// Events on the edges that left the kept prefix, by their output end.
    streams: HashMap<Outlet, Vec<LogEvent>>,
    /// Events on edges inside the prefix: (from, port) → (to, port) → events.
    edge_counts: HashMap<(Outlet, Outlet), usize>,
}

fn is_source(vertex: &Vertex) -> bool {
    vertex.vertex_type().ends_with("-source")
}

fn vertex(name: &str, kind: &str, extra: Option<(&str, &str)>) -> Option<Vertex> {
    let mut fields = Map::new();
    fields.insert("type".into(), Value::String(kind.into()));
    fields.insert("name".into(), Value::String(name.into()));
    if let Some((key, value)) = extra {
        fields.insert(key.into(), Value::String(value.into()));
    }
    Vertex::from_fields(fields).ok()
}

fn endpoint_text(vertex: &str, port: &Option<String>) -> String {
    match port {
        Some(port) => format!("{vertex}:{port}"),
        None => vertex.to_owned(),
    }
}

/// Notes name edges as written: the synthetic edge's text becomes the original's.
fn renamed_notes(record: &mut VertexRun, renames: &[(String, &str)]) {
    for note in &mut record.notes {
        for (synthetic, original) in renames {
            let from = format!("`{synthetic}`");
            if note.contains(&from) {
                *note = note.replace(&from, &format!("`{original}`"));
            }
        }
    }
}

impl RunCache {
    /// Runs `graph` on `input` (a copy of the set's events and the tables), reusing what the
    /// previous runs kept; `None` when it cannot (then the caller runs the whole graph, and
    /// `forget_split` records the graph it ran).
    pub(crate) fn run(
        &mut self,
        graph: &JobGraph,
        events: &[LogEvent],
        tables: &IndexMap<String, Vec<LogEvent>>,
        options: &RunOptions,
        salt: Key,
    ) -> Option<Run> {
        if self.salt != Some(salt) {
            *self = RunCache {
                salt: Some(salt),
                ..RunCache::default()
            };
        }
        let analysis = analyse(graph)?;
        let total = events.len() + tables.values().map(Vec::len).sum::<usize>();
        if total > options.max_events {
            return None;
        }
        // Reusable: some vertices kept, everything upstream of them kept too, and the events of
        // every edge from a kept vertex to another one kept.
        let kept: Vec<bool> = analysis
            .nodes
            .iter()
            .map(|n| self.records.contains_key(&n.record_key))
            .collect();
        let reusable = kept.iter().any(|k| *k)
            && analysis
                .edges
                .iter()
                .all(|(_, edge, from, to)| match (kept[*from], kept[*to]) {
                    (false, true) => false,
                    (true, false) => self
                        .streams
                        .contains_key(&outlet(analysis.nodes[*from].key, edge)),
                    _ => true,
                });
        let previous = std::mem::replace(
            &mut self.previous,
            analysis.nodes.iter().map(|n| n.key).collect(),
        );
        let stable = if reusable {
            kept
        } else {
            // Split where this graph differs from the previous one, and keep that prefix.
            let stable: Vec<bool> = analysis
                .nodes
                .iter()
                .map(|n| previous.contains(&n.key))
                .collect();
            if stable.iter().all(|s| *s) || !stable.iter().any(|s| *s) {
                return None;
            }
            self.run_prefix(&analysis, &stable, events, tables, options)?;
            stable
        };
        self.run_suffix(&analysis, &stable, events, tables, options)
    }

    /// Runs the vertices of `stable` with a synthetic sink on each distinct edge output that
    /// leaves them, and keeps their records, sinks and those streams (replacing what was kept).
    fn run_prefix(
        &mut self,
        analysis: &Analysis,
        stable: &[bool],
        events: &[LogEvent],
        tables: &IndexMap<String, Vec<LogEvent>>,
        options: &RunOptions,
    ) -> Option<()> {
        let mut vertices: Vec<Vertex> = analysis
            .nodes
            .iter()
            .zip(stable)
            .filter(|(_, s)| **s)
            .map(|(n, _)| n.vertex.clone())
            .collect();
        let mut edges = Vec::new();
        // Distinct cut outputs → their synthetic sink; renames of the synthetic edges' text.
        let mut sinks: Vec<(Outlet, String)> = Vec::new();
        let mut renames = Vec::new();
        for (text, edge, from, to) in &analysis.edges {
            match (stable[*from], stable[*to]) {
                (true, true) => edges.push((*text).to_owned()),
                (true, false) => {
                    if is_source(analysis.nodes[*to].vertex) {
                        return None;
                    }
                    let out = outlet(analysis.nodes[*from].key, edge);
                    let sink = match sinks.iter().find(|(o, _)| *o == out) {
                        Some((_, name)) => name.clone(),
                        None => {
                            let name = format!("{CUT_SINK}{}", sinks.len());
                            vertices.push(vertex(&name, "logs-sync-sink", None)?);
                            sinks.push((out, name.clone()));
                            name
                        }
                    };
                    let synthetic = format!(
                        "{} -> {sink}",
                        endpoint_text(&edge.from.vertex, &edge.from.port)
                    );
                    renames.push((synthetic.clone(), *text));
                    edges.push(synthetic);
                }
                (false, true) => return None,
                (false, false) => {}
            }
        }
        let prefix = JobGraph::new(vertices, edges);
        let input = RunInput {
            events: events.to_vec(),
            tables: tables.clone(),
        };
        let mut run = Pipeline::compile(&prefix)
            .and_then(|p| p.run(input, options))
            .ok()?;
        self.records.clear();
        self.streams.clear();
        self.edge_counts.clear();
        let counts: HashMap<&str, usize> = run
            .edges
            .iter()
            .map(|e| (e.edge.as_str(), e.events))
            .collect();
        for (text, edge, from, to) in &analysis.edges {
            if stable[*from] && stable[*to] {
                let pair = (
                    outlet(analysis.nodes[*from].key, edge),
                    inlet(analysis.nodes[*to].key, edge),
                );
                self.edge_counts.insert(pair, *counts.get(*text)?);
            }
        }
        for (out, sink) in sinks {
            self.streams.insert(out, run.sinks.shift_remove(&sink)?);
        }
        let mut records: HashMap<String, VertexRun> = run
            .vertices
            .into_iter()
            .map(|r| (r.name.clone(), r))
            .collect();
        for (node, _) in analysis.nodes.iter().zip(stable).filter(|(_, s)| **s) {
            let name = node.vertex.name();
            let mut record = records.remove(name)?;
            renamed_notes(&mut record, &renames);
            let sink = run.sinks.shift_remove(name);
            self.records.insert(node.record_key, (record, sink));
        }
        Some(())
    }

    /// Runs the vertices not in `stable`, each kept stream fed by a synthetic source, and
    /// merges the result with the kept prefix into a whole run's record.
    fn run_suffix(
        &self,
        analysis: &Analysis,
        stable: &[bool],
        events: &[LogEvent],
        tables: &IndexMap<String, Vec<LogEvent>>,
        options: &RunOptions,
    ) -> Option<Run> {
        let mut vertices = Vec::new();
        let mut edges = Vec::new();
        let mut input_tables = IndexMap::new();
        let mut sources: Vec<(Outlet, String)> = Vec::new();
        let mut renames = Vec::new();
        // Where each edge's count comes from: the suffix run (by its edge text) or kept.
        let mut counted: Vec<Result<String, usize>> = Vec::with_capacity(analysis.edges.len());
        for (text, edge, from, to) in &analysis.edges {
            let (from_key, to_key) = (analysis.nodes[*from].key, analysis.nodes[*to].key);
            match (stable[*from], stable[*to]) {
                (true, true) => {
                    let pair = (outlet(from_key, edge), inlet(to_key, edge));
                    counted.push(Err(*self.edge_counts.get(&pair)?));
                }
                (true, false) => {
                    if is_source(analysis.nodes[*to].vertex) {
                        return None;
                    }
                    let out = outlet(from_key, edge);
                    let source = match sources.iter().find(|(o, _)| *o == out) {
                        Some((_, name)) => name.clone(),
                        None => {
                            let stream = self.streams.get(&out)?;
                            let name = format!("{CUT_SOURCE}{}", sources.len());
                            let table = format!("{CUT_TABLE}{}", sources.len());
                            vertices.push(vertex(
                                &name,
                                "logs-iceberg-table-source",
                                Some(("table", &table)),
                            )?);
                            input_tables.insert(table, stream.clone());
                            sources.push((out, name.clone()));
                            name
                        }
                    };
                    let synthetic = format!(
                        "{source} -> {}",
                        endpoint_text(&edge.to.vertex, &edge.to.port)
                    );
                    renames.push((synthetic.clone(), *text));
                    counted.push(Ok(synthetic.clone()));
                    edges.push(synthetic);
                }
                (false, true) => return None,
                (false, false) => {
                    counted.push(Ok((*text).to_owned()));
                    edges.push((*text).to_owned());
                }
            }
        }
        vertices.extend(
            analysis
                .nodes
                .iter()
                .zip(stable)
                .filter(|(_, s)| !**s)
                .map(|(n, _)| n.vertex.clone()),
        );
        let real_source = analysis
            .nodes
            .iter()
            .zip(stable)
            .any(|(n, s)| !*s && is_source(n.vertex));
        for (table, list) in tables {
            input_tables.insert(table.clone(), list.clone());
        }
        // The prefix handled its events already: the suffix may handle the rest of the budget.
        let handled: usize = analysis
            .nodes
            .iter()
            .zip(stable)
            .filter(|(_, s)| **s)
            .map(|(n, _)| self.records.get(&n.record_key).map(|r| r.0.events_in))
            .sum::<Option<usize>>()?;
        let suffix_options = RunOptions {
            max_events: usize::MAX,
            max_handled: options.max_handled.checked_sub(handled)?,
            ..options.clone()
        };
        let input = RunInput {
            events: if real_source {
                events.to_vec()
            } else {
                Vec::new()
            },
            tables: input_tables,
        };
        let suffix = JobGraph::new(vertices, edges);
        let run: Result<Run, RunError> =
            Pipeline::compile(&suffix).and_then(|p| p.run(input, &suffix_options));
        let mut run = run.ok()?;
        let counts: HashMap<&str, usize> = run
            .edges
            .iter()
            .map(|e| (e.edge.as_str(), e.events))
            .collect();
        let mut records: HashMap<String, VertexRun> = run
            .vertices
            .drain(..)
            .map(|r| (r.name.clone(), r))
            .collect();
        let mut merged = Vec::with_capacity(analysis.nodes.len());
        let mut sink_events: HashMap<usize, Vec<LogEvent>> = HashMap::new();
        for (v, node) in analysis.nodes.iter().enumerate() {
            let name = node.vertex.name();
            if stable[v] {
                let (record, sink) = self.records.get(&node.record_key)?;
                merged.push(record.clone());
                if let Some(sink) = sink {
                    sink_events.insert(v, sink.clone());
                }
            } else {
                let mut record = records.remove(name)?;
                renamed_notes(&mut record, &renames);
                merged.push(record);
                if let Some(sink) = run.sinks.shift_remove(name) {
                    sink_events.insert(v, sink);
                }
            }
        }
        let mut sinks = IndexMap::new();
        for &v in &analysis.order {
            if let Some(events) = sink_events.remove(&v) {
                sinks.insert(analysis.nodes[v].vertex.name().to_owned(), events);
            }
        }
        let mut edge_counts = Vec::with_capacity(analysis.edges.len());
        for ((text, ..), count) in analysis.edges.iter().zip(counted) {
            let events = match count {
                Err(kept) => kept,
                Ok(edge) => *counts.get(edge.as_str())?,
            };
            edge_counts.push(EdgeCount {
                edge: (*text).to_owned(),
                events,
            });
        }
        Some(Run {
            vertices: merged,
            sinks,
            edges: edge_counts,
        })
    }
}
