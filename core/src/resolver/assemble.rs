//! Assembly: the expanded tree of graphs becomes one graph, bottom-up. Produced vertices are
//! renamed `op.<name>`, edges are rewired through the templates' port maps, and each subgraph
//! takes its operation's place (see the module documentation of [`super`] for the order).

use std::collections::HashMap;

use indexmap::IndexMap;

use super::expand::{NodeId, Tree};
use super::{Provenance, Resolution};
use crate::edge::{Edge, Endpoint};
use crate::error::{Error, Location};
use crate::vertex::Vertex;

impl Tree {
    pub fn assemble(&self) -> Result<Resolution, Error> {
        let assembled = self.assemble_node(0)?;
        let mut seen: HashMap<&str, usize> = HashMap::with_capacity(assembled.vertices.len());
        for (i, vertex) in assembled.vertices.iter().enumerate() {
            if let Some(first) = seen.insert(vertex.name(), i) {
                let describe = |index: usize| match &assembled.provenance[index] {
                    Some(p) => format!(
                        "operation {} (template {}@{}, vertex {:?})",
                        p.operation_path.join(" > "),
                        p.template_id,
                        p.template_version,
                        p.original_name
                    ),
                    None => "the job graph itself".to_owned(),
                };
                return Err(Error::NameCollision {
                    name: vertex.name().to_owned(),
                    first: describe(first),
                    second: describe(i),
                });
            }
        }
        let provenance = assembled
            .vertices
            .iter()
            .zip(assembled.provenance)
            .filter_map(|(v, p)| Some((v.name().to_owned(), p?)))
            .collect();
        // Two distinct edges of a graph can be rewired onto the same wire (`src -> op` and
        // `src -> op:input` when the template maps `input`): one wire is kept, the first, so
        // that the resolved graph has no duplicate edge (docs/resolution.md).
        let mut seen = std::collections::HashSet::new();
        let edges = assembled
            .edges
            .iter()
            .filter(|edge| seen.insert(*edge))
            .map(Edge::to_string)
            .collect();
        let graph = self.nodes[0].graph.with_contents(assembled.vertices, edges);
        Ok(Resolution { graph, provenance })
    }

    /// Assembles one node with its names relative to that node's graph.
    fn assemble_node(&self, id: NodeId) -> Result<Assembled, Error> {
        let node = &self.nodes[id];
        let own_provenance = node.origin.as_ref().map(|o| Provenance {
            original_name: String::new(),
            operation_path: o.at.operation_path.clone(),
            template_id: o.template.id.clone(),
            template_version: o.template.version,
        });
        let mut out = Assembled::default();
        let mut child_edges = Vec::new();
        let mut children = node.children.iter().peekable();
        for (index, vertex) in node.graph.vertices.iter().enumerate() {
            let Some(&(_, child_id)) = children.next_if(|(v, _)| *v == index) else {
                out.vertices.push(vertex.clone());
                out.provenance.push(own_provenance.clone().map(|mut p| {
                    p.original_name = vertex.name().to_owned();
                    p
                }));
                continue;
            };
            let prefix = format!("{}.", vertex.name());
            let child = self.assemble_node(child_id)?;
            let ports = self.ports_of(child_id, &child)?;
            for (mut v, p) in child.vertices.into_iter().zip(child.provenance) {
                v.set_name(format!("{prefix}{}", v.name()));
                out.vertices.push(v);
                out.provenance.push(p);
            }
            child_edges.extend(child.edges.into_iter().map(|e| Edge {
                from: e.from.prefixed(&prefix),
                to: e.to.prefixed(&prefix),
            }));
            out.ports
                .insert(vertex.name().to_owned(), ports.prefixed(&prefix));
        }
        for (edge, text) in node.edges.iter().zip(&node.graph.edges) {
            let from = match out.ports.get(&edge.from.vertex) {
                Some(ports) => {
                    ports.endpoint(Direction::Output, edge.from.port.as_deref(), text)?
                }
                None => edge.from.clone(),
            };
            let to = match out.ports.get(&edge.to.vertex) {
                Some(ports) => ports.endpoint(Direction::Input, edge.to.port.as_deref(), text)?,
                None => edge.to.clone(),
            };
            out.edges.push(Edge { from, to });
        }
        out.edges.append(&mut child_edges);
        Ok(out)
    }

    /// The external ports of the operation that `id` replaces, in `id`'s namespace.
    fn ports_of(&self, id: NodeId, assembled: &Assembled) -> Result<Ports, Error> {
        let node = &self.nodes[id];
        let Some(origin) = &node.origin else {
            return Ok(Ports::default());
        };
        let template = &origin.template;
        let names: std::collections::HashSet<&str> =
            node.graph.vertices.iter().map(Vertex::name).collect();
        let target = |field: &str, port: &str, text: &str, direction: Direction| {
            let invalid = |reason: String| Error::InvalidTemplate {
                reason,
                at: Box::new(origin.at.clone()),
            };
            let end: Endpoint = text.parse().map_err(|e: crate::EdgeError| {
                invalid(format!(
                    "{field}.{port} = {text:?} is not `vertex[:port]`: {}",
                    e.reason
                ))
            })?;
            if let Some(nested) = assembled.ports.get(&end.vertex) {
                return nested.endpoint(direction, end.port.as_deref(), text);
            }
            if names.contains(end.vertex.as_str()) {
                Ok(end)
            } else {
                Err(invalid(format!(
                    "{field}.{port} maps to {text:?}, but the template's graph has no vertex {:?}{}",
                    end.vertex,
                    if node.draft {
                        ""
                    } else {
                        " (is it created only in draft mode?)"
                    }
                )))
            }
        };
        let mut ports = Ports {
            operation: origin.at.clone(),
            ..Ports::default()
        };
        for (port, text) in &template.inputs {
            ports
                .inputs
                .insert(port.clone(), target("inputs", port, text, Direction::Input));
        }
        for (port, text) in &template.outputs {
            ports.outputs.insert(
                port.clone(),
                target("outputs", port, text, Direction::Output),
            );
        }
        ports.regular_outputs = template.outputs.len();
        if node.draft {
            for draft in &template.draft_outputs {
                if ports.outputs.contains_key(&draft.name) {
                    return Err(Error::InvalidTemplate {
                        reason: format!(
                            "draft output {:?} has the name of a regular output; give it its own name",
                            draft.name
                        ),
                        at: Box::new(origin.at.clone()),
                    });
                }
                let entry = target(
                    "draftOutputs",
                    &draft.name,
                    &draft.vertex,
                    Direction::Output,
                );
                ports.outputs.insert(draft.name.clone(), entry);
            }
        }
        Ok(ports)
    }
}

#[derive(Default)]
struct Assembled {
    vertices: Vec<Vertex>,
    provenance: Vec<Option<Provenance>>,
    edges: Vec<Edge>,
    /// External ports of each template operation of this graph, by operation name.
    ports: HashMap<String, Ports>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    Input,
    Output,
}

/// The external ports of one template operation. Broken mappings are kept as errors and
/// reported only when an edge uses them.
#[derive(Default, Clone)]
struct Ports {
    operation: Location,
    inputs: IndexMap<String, Result<Endpoint, Error>>,
    /// Regular outputs first, then draft outputs (in draft mode).
    outputs: IndexMap<String, Result<Endpoint, Error>>,
    regular_outputs: usize,
}

impl Ports {
    fn prefixed(self, prefix: &str) -> Ports {
        let map = |m: IndexMap<String, Result<Endpoint, Error>>| {
            m.into_iter()
                .map(|(k, v)| (k, v.map(|e| e.prefixed(prefix))))
                .collect()
        };
        Ports {
            operation: self.operation,
            inputs: map(self.inputs),
            outputs: map(self.outputs),
            regular_outputs: self.regular_outputs,
        }
    }

    /// The internal endpoint behind `port` (or the default port when `None`).
    fn endpoint(
        &self,
        direction: Direction,
        port: Option<&str>,
        edge: &str,
    ) -> Result<Endpoint, Error> {
        let (map, kind, fallback, candidates) = match direction {
            Direction::Input => (&self.inputs, "input", "input", self.inputs.len()),
            Direction::Output => (&self.outputs, "output", "output", self.regular_outputs),
        };
        let available = || {
            let names: Vec<&str> = map.keys().map(String::as_str).collect();
            if names.is_empty() {
                format!("the template has no {kind}s")
            } else {
                format!("available {kind}s: {}", names.join(", "))
            }
        };
        let operation = self
            .operation
            .operation_path
            .last()
            .map_or("", String::as_str);
        let chosen = match port {
            Some(port) => match map.get(port) {
                Some(entry) => entry,
                None => {
                    return Err(Error::Port {
                        reason: format!(
                            "edge {edge:?} names {kind} {port:?} of template operation {operation:?}, which has no such {kind}; {}",
                            available()
                        ),
                        at: Box::new(self.operation.clone()),
                    });
                }
            },
            None => {
                // Only regular ports count here: draft outputs come after them in `map`, and
                // must never change where an edge without a port goes.
                let only = (candidates == 1)
                    .then(|| map.get_index(0).map(|(_, v)| v))
                    .flatten();
                let named = map
                    .get_full(fallback)
                    .filter(|(index, _, _)| *index < candidates)
                    .map(|(_, _, v)| v);
                match only.or(named) {
                    Some(entry) => entry,
                    None => {
                        return Err(Error::Port {
                            reason: format!(
                                "edge {edge:?} names template operation {operation:?} without a port, and it has no single {kind} nor one named {fallback:?}; name one with `{operation}:<{kind}>`; {}",
                                available()
                            ),
                            at: Box::new(self.operation.clone()),
                        });
                    }
                }
            }
        };
        chosen.clone()
    }
}
