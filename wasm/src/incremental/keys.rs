//! The keys of incremental runs (`mod.rs`): every vertex's key (the SHA-256 of its JSON and of
//! its in-edges' keys and ports, so that it changes when the vertex or anything upstream of it
//! changes), the key of its record (with its out-edges, whose notes it carries), the engine's
//! order of the vertices, and the names the synthetic vertices of a split take.

use std::collections::{BTreeSet, HashMap};

use jobgraph_core::edge::Edge;
use jobgraph_core::pipeline::RunOptions;
use jobgraph_core::{JobGraph, Vertex, parse_edge};
use sha2::{Digest, Sha256};

/// A vertex's key: a SHA-256.
pub(super) type Key = [u8; 32];

/// An edge's output end: the key of the vertex it leaves and its port as written.
pub(super) type Outlet = (Key, Option<String>);

/// One vertex of the graph being run, with what the split needs.
pub(super) struct Node<'g> {
    pub vertex: &'g Vertex,
    pub key: Key,
    /// The key of its record: `key` and its out-edges (their notes are on this vertex).
    pub record_key: Key,
}

/// The graph being run, analysed: every vertex's key, the edges parsed, the run's order.
pub(super) struct Analysis<'g> {
    pub nodes: Vec<Node<'g>>,
    /// (edge as written, parsed, from index, to index), in `edges` order.
    pub edges: Vec<(&'g str, Edge, usize, usize)>,
    /// The whole run's order (the engine's: ready vertices in graph order).
    pub order: Vec<usize>,
}

/// The names of a split's synthetic sinks, sources and tables (a graph that uses one runs whole).
pub(super) const CUT_SINK: &str = "__jobgraph_cut_sink_";
pub(super) const CUT_SOURCE: &str = "__jobgraph_cut_source_";
pub(super) const CUT_TABLE: &str = "\u{1}jobgraph cut ";

fn digest(parts: &[&[u8]]) -> Key {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    hasher.finalize().into()
}

fn port_bytes(port: &Option<String>) -> &[u8] {
    port.as_deref().map_or(b"\0", str::as_bytes)
}

/// Analyses `graph`; `None` when the split cannot apply (duplicate or reserved names, an edge
/// that does not parse or names no vertex, a cycle): the whole run says what is wrong.
pub(super) fn analyse(graph: &JobGraph) -> Option<Analysis<'_>> {
    let mut index = HashMap::new();
    for (i, vertex) in graph.vertices.iter().enumerate() {
        let name = vertex.name();
        if name.starts_with(CUT_SINK) || name.starts_with(CUT_SOURCE) {
            return None;
        }
        if index.insert(name, i).is_some() {
            return None;
        }
    }
    let mut edges = Vec::with_capacity(graph.edges.len());
    for text in &graph.edges {
        let edge = parse_edge(text).ok()?;
        let from = *index.get(edge.from.vertex.as_str())?;
        let to = *index.get(edge.to.vertex.as_str())?;
        edges.push((text.as_str(), edge, from, to));
    }
    // The engine's order: Kahn's algorithm, the ready vertex with the lowest index first.
    let n = graph.vertices.len();
    let mut pending = vec![0usize; n];
    let mut next = vec![Vec::new(); n];
    for (_, _, from, to) in &edges {
        pending[*to] += 1;
        next[*from].push(*to);
    }
    let mut ready: BTreeSet<usize> = (0..n).filter(|v| pending[*v] == 0).collect();
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
        return None;
    }
    let mut keys = vec![[0u8; 32]; n];
    for &v in &order {
        let text = serde_json::to_string(graph.vertices[v].fields()).ok()?;
        let mut parts: Vec<Vec<u8>> = vec![text.into_bytes()];
        for (_, edge, from, _) in edges.iter().filter(|e| e.3 == v) {
            parts.push(keys[*from].to_vec());
            parts.push(port_bytes(&edge.from.port).to_vec());
            parts.push(port_bytes(&edge.to.port).to_vec());
        }
        keys[v] = digest(&parts.iter().map(Vec::as_slice).collect::<Vec<_>>());
    }
    let nodes = graph
        .vertices
        .iter()
        .enumerate()
        .map(|(v, vertex)| {
            let mut parts: Vec<&[u8]> = vec![&keys[v]];
            for (text, ..) in edges.iter().filter(|e| e.2 == v || e.3 == v) {
                parts.push(text.as_bytes());
            }
            Node {
                vertex,
                key: keys[v],
                record_key: digest(&parts),
            }
        })
        .collect();
    Some(Analysis {
        nodes,
        edges,
        order,
    })
}

/// The key of what every run of one cache shares: the options and the tables' text.
pub(crate) fn salt(options: &RunOptions, tables: &str) -> Key {
    let numbers = format!(
        "{} {} {}",
        options.keep, options.max_events, options.max_handled
    );
    digest(&[numbers.as_bytes(), tables.as_bytes()])
}

pub(super) fn outlet(key: Key, edge: &Edge) -> Outlet {
    (key, edge.from.port.clone())
}

pub(super) fn inlet(key: Key, edge: &Edge) -> Outlet {
    (key, edge.to.port.clone())
}
