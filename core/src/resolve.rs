//! Recursive template resolution.
//!
//! Resolution runs in two phases:
//!
//! 1. **Expansion**, level by level. All template operations of one level are collected, the
//!    templates they need are fetched together (each `id`/`version` at most once per call), and
//!    then their scripts run in graph order. The subgraphs they yield form the next level. An
//!    operation at level [`MAX_DEPTH`]` + 1` is an error.
//! 2. **Assembly**, bottom-up. Every vertex a template operation `op` produces is renamed
//!    `op.<name>` (nested operations compound: `outer.inner.vertex`), edges are rewired through
//!    the templates' `inputs`/`outputs` maps (and `draftOutputs` in draft mode), and the
//!    subgraph takes the operation's place.
//!
//! ## Output order
//! Vertices keep the order of the job graph; each template operation is replaced, in place, by
//! the vertices of its subgraph in the script's order (recursively). Edges: first the job
//! graph's own edges in their order (rewired), then, for each template operation in vertex order,
//! the edges of its resolved subgraph (recursively in the same way). Edges are written in the
//! canonical form `from[:port] -> to[:port]`.

use std::collections::HashMap;
use std::rc::Rc;

use indexmap::IndexMap;
use serde::Serialize;

use crate::edge::{Edge, Endpoint};
use crate::error::{Error, Location};
use crate::execution::{Run, compile_schema, read_output, run_template};
use crate::graph::{JobGraph, Vertex};
use crate::inputs::InputSchema;
use crate::sandbox::{InProcess, Limits, Sandbox};
use crate::source::{FetchError, TemplateSource};
use crate::template::Template;
use crate::validate::validate_job_graph;
use crate::vertex::TemplateOperation;

/// Deepest level of nested template operations that resolves (the job graph's own operations
/// are level 1).
pub const MAX_DEPTH: usize = 10;

/// Options of one resolution.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ResolveOptions {
    /// What `user.getName()` returns in every script.
    pub user: String,
    /// Limits of every script execution.
    pub limits: Limits,
    /// Draft mode for every operation, as if each had `draftMode: true`.
    pub draft: bool,
}

impl Default for ResolveOptions {
    fn default() -> Self {
        ResolveOptions {
            user: "anonymous".into(),
            limits: Limits::default(),
            draft: false,
        }
    }
}

/// Where a vertex of the resolved graph came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Provenance {
    /// Its name in the subgraph the template's script returned.
    pub original_name: String,
    /// The template operations that led to it, from the job graph down.
    pub operation_path: Vec<String>,
    /// The template that produced it.
    pub template_id: String,
    /// The template version that produced it.
    pub template_version: u64,
}

/// A resolved graph and where each produced vertex came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolution {
    /// The graph with every template operation replaced.
    pub graph: JobGraph,
    /// For every vertex produced by a template, keyed by its final name, in vertex order.
    /// Vertices of the job graph itself have no entry.
    pub provenance: IndexMap<String, Provenance>,
}

/// Resolves every template operation of `graph`, fetching templates from `source`.
///
/// ```
/// use jobgraph_core::{JobGraph, ResolveOptions, Template, TemplateSet, resolve_now};
/// let templates: TemplateSet = [Template {
///     id: "filter".into(), version: 1, name: "Filter".into(),
///     template: "({vertices: [{type: 'logs-filter', name: 'f', \
///                query: {type: 'simple-query', query: q}}], edges: []})".into(),
///     input_schema: Some(serde_json::json!({"type": "object",
///         "properties": {"q": {"type": "string", "default": "*"}}})),
///     inputs: [("input".to_string(), "f:input".to_string())].into_iter().collect(),
///     outputs: [("output".to_string(), "f:output".to_string())].into_iter().collect(),
///     ..Default::default()
/// }].into_iter().collect();
/// let job: JobGraph = serde_json::from_str(r#"{
///   "vertices": [{"type": "src", "name": "in"},
///                {"type": "template-operation", "name": "errors", "templateId": "filter",
///                 "templateInputs": {"q": "level:error"}},
///                {"type": "sink", "name": "out"}],
///   "edges": ["in -> errors", "errors -> out"]
/// }"#).unwrap();
/// let resolved = resolve_now(&job, &templates, &ResolveOptions::default()).unwrap();
/// let names: Vec<_> = resolved.graph.vertices.iter().map(|v| v.name()).collect();
/// assert_eq!(names, ["in", "errors.f", "out"]);
/// assert_eq!(resolved.graph.edges, ["in -> errors.f:input", "errors.f:output -> out"]);
/// assert_eq!(resolved.provenance["errors.f"].original_name, "f");
/// ```
pub async fn resolve<S: TemplateSource + ?Sized>(
    graph: &JobGraph,
    source: &S,
    options: &ResolveOptions,
) -> Result<Resolution, Error> {
    resolve_with(graph, source, &InProcess, options).await
}

/// [`resolve`] with every script run in `sandbox` (an execution mode, see [`Sandbox`]).
pub async fn resolve_with<S: TemplateSource + ?Sized, B: Sandbox + ?Sized>(
    graph: &JobGraph,
    source: &S,
    sandbox: &B,
    options: &ResolveOptions,
) -> Result<Resolution, Error> {
    let problems = validate_job_graph(&graph.to_value());
    if !problems.is_empty() {
        return Err(Error::InvalidJobGraph { problems });
    }
    resolve_valid(graph, source, sandbox, options).await
}

/// Resolves a graph that has already passed [`validate_job_graph`].
async fn resolve_valid<S: TemplateSource + ?Sized, B: Sandbox + ?Sized>(
    graph: &JobGraph,
    source: &S,
    sandbox: &B,
    options: &ResolveOptions,
) -> Result<Resolution, Error> {
    let mut tree = Tree::new(graph.clone(), options.draft)?;
    tree.expand(source, sandbox, options).await?;
    tree.assemble()
}

/// [`resolve`] for sources that answer at once (such as [`crate::TemplateSet`]); fails with a
/// [`Error::Source`] if the source would have to wait.
pub fn resolve_now<S: TemplateSource + ?Sized>(
    graph: &JobGraph,
    source: &S,
    options: &ResolveOptions,
) -> Result<Resolution, Error> {
    ready_now(resolve(graph, source, options))
}

/// Completes a future of this crate that must not wait (a source such as
/// [`crate::TemplateSet`] and a sandbox such as [`InProcess`] never do): polls it once, and
/// fails with an [`Error::Source`] when something would have to wait — then `.await` it instead.
pub fn ready_now<T, F: std::future::Future<Output = Result<T, Error>>>(
    future: F,
) -> Result<T, Error> {
    let mut future = std::pin::pin!(future);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match future.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(out) => out,
        std::task::Poll::Pending => Err(Error::Source {
            message: "the template source or sandbox is asynchronous; call the async function \
                      (`resolve`, `resolve_document`, `resolve_with`, …) and await it instead"
                .to_owned(),
            at: Box::default(),
        }),
    }
}

type NodeId = usize;
type TemplateKey = (String, Option<u64>);

/// One graph of the expansion: the job graph (root) or a subgraph a template produced.
struct Node {
    graph: JobGraph,
    edges: Vec<Edge>,
    /// The operation this subgraph replaces; `None` for the job graph.
    origin: Option<Origin>,
    draft: bool,
    /// Template operations of this graph: vertex index → child node.
    children: Vec<(usize, NodeId)>,
}

struct Origin {
    template: Rc<Template>,
    at: Location,
    /// `op (id@version)` for each operation from the root down, for depth errors.
    chain: Vec<String>,
}

struct Tree {
    nodes: Vec<Node>,
}

/// A template operation waiting to run.
struct Pending {
    parent: NodeId,
    vertex: usize,
    op: TemplateOperation,
    name: String,
    key: TemplateKey,
}

impl Tree {
    fn new(graph: JobGraph, draft: bool) -> Result<Self, Error> {
        let edges = parse_edges(&graph, &Location::default())?;
        Ok(Tree {
            nodes: vec![Node {
                graph,
                edges,
                origin: None,
                draft,
                children: Vec::new(),
            }],
        })
    }

    async fn expand<S: TemplateSource + ?Sized, B: Sandbox + ?Sized>(
        &mut self,
        source: &S,
        sandbox: &B,
        options: &ResolveOptions,
    ) -> Result<(), Error> {
        let mut templates: HashMap<TemplateKey, Result<Rc<Template>, FetchError>> = HashMap::new();
        let mut schemas: HashMap<TemplateKey, Rc<InputSchema>> = HashMap::new();
        let mut frontier: Vec<NodeId> = vec![0];
        let mut level = 1;
        let mut expanded = 0usize;
        while !frontier.is_empty() {
            let pending = self.pending_operations(&frontier)?;
            if let Some(first) = pending.first()
                && level > MAX_DEPTH
            {
                return Err(self.too_deep(first));
            }
            expanded += pending.len();
            if let Some(first) = pending.first()
                && expanded > options.limits.max_operations
            {
                return Err(Error::TooManyOperations {
                    max: options.limits.max_operations,
                    level,
                    total: expanded,
                    at: Box::new(self.location_of(first)),
                });
            }
            let mut wanted: Vec<&TemplateKey> = Vec::new();
            for p in &pending {
                if !templates.contains_key(&p.key) && !wanted.contains(&&p.key) {
                    wanted.push(&p.key);
                }
            }
            let fetched = futures_util::future::join_all(
                wanted
                    .iter()
                    .map(|(id, version)| source.fetch(id, *version)),
            )
            .await;
            for (key, result) in wanted.into_iter().zip(fetched) {
                templates.insert(key.clone(), result.map(Rc::new));
            }

            let mut next = Vec::new();
            for p in pending {
                let parent = &self.nodes[p.parent];
                let mut at = parent
                    .origin
                    .as_ref()
                    .map(|o| o.at.clone())
                    .unwrap_or_default();
                at.operation_path.push(p.name.clone());
                at.template = None;
                at.template_id = Some(p.op.template_id.clone());
                at.template_version = p.op.template_version;
                let template = match templates.get(&p.key) {
                    Some(Ok(t)) => Rc::clone(t),
                    Some(Err(FetchError::NotFound)) | None => {
                        return Err(Error::TemplateNotFound {
                            reference: reference(&p.key),
                            at: Box::new(at),
                        });
                    }
                    Some(Err(FetchError::Failed(message))) => {
                        return Err(Error::Source {
                            message: format!("fetching {}: {message}", reference(&p.key)),
                            at: Box::new(at),
                        });
                    }
                };
                at.template = Some(template.label());
                at.template_version = Some(template.version);
                let schema = match schemas.get(&p.key) {
                    Some(s) => Rc::clone(s),
                    None => {
                        let s = Rc::new(compile_schema(&template, &at)?);
                        schemas.insert(p.key.clone(), Rc::clone(&s));
                        s
                    }
                };
                let draft = p.op.draft_mode || parent.draft;
                let mut chain = parent
                    .origin
                    .as_ref()
                    .map(|o| o.chain.clone())
                    .unwrap_or_default();
                chain.push(format!("{} ({})", p.name, template.label()));
                let output = run_template(
                    Run {
                        template: &template,
                        schema: &schema,
                        inputs: p.op.template_inputs,
                        draft,
                        user: &options.user,
                        limits: &options.limits,
                        at: &at,
                    },
                    sandbox,
                )
                .await?;
                let graph = read_output(output, true, &at)?;
                let edges = parse_edges(&graph, &at)?;
                let id = self.nodes.len();
                self.nodes.push(Node {
                    graph,
                    edges,
                    origin: Some(Origin {
                        template,
                        at,
                        chain,
                    }),
                    draft,
                    children: Vec::new(),
                });
                self.nodes[p.parent].children.push((p.vertex, id));
                next.push(id);
            }
            frontier = next;
            level += 1;
        }
        Ok(())
    }

    /// The template operations of the given nodes, in order.
    fn pending_operations(&self, frontier: &[NodeId]) -> Result<Vec<Pending>, Error> {
        let mut pending = Vec::new();
        for &parent in frontier {
            let node = &self.nodes[parent];
            for (vertex, v) in node.graph.vertices.iter().enumerate() {
                if !v.is_template_operation() {
                    continue;
                }
                // Graphs were validated, so the typed read only fails on exotic input.
                let op = TemplateOperation::from_vertex(v).map_err(|reason| {
                    let at = node
                        .origin
                        .as_ref()
                        .map(|o| o.at.clone())
                        .unwrap_or_default();
                    Error::InvalidOutput {
                        reason: reason.clone(),
                        problems: Vec::new(),
                        at: Box::new(at),
                    }
                })?;
                let key = (op.template_id.clone(), op.template_version);
                pending.push(Pending {
                    parent,
                    vertex,
                    name: v.name().to_owned(),
                    op,
                    key,
                });
            }
        }
        Ok(pending)
    }

    /// Where a pending operation is: its parent's location plus its name.
    fn location_of(&self, pending: &Pending) -> Location {
        let origin = self.nodes[pending.parent].origin.as_ref();
        let mut at = origin.map(|o| o.at.clone()).unwrap_or_default();
        at.operation_path.push(pending.name.clone());
        at
    }

    fn too_deep(&self, first: &Pending) -> Error {
        let parent = &self.nodes[first.parent];
        let origin = parent.origin.as_ref();
        let mut chain = origin.map(|o| o.chain.clone()).unwrap_or_default();
        chain.push(format!("{} ({})", first.name, reference(&first.key)));
        let mut at = origin.map(|o| o.at.clone()).unwrap_or_default();
        at.operation_path.push(first.name.clone());
        Error::TooDeep {
            max: MAX_DEPTH,
            chain: chain.join(" > "),
            at: Box::new(at),
        }
    }

    fn assemble(&self) -> Result<Resolution, Error> {
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
        let edges = assembled.edges.iter().map(Edge::to_string).collect();
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

fn parse_edges(graph: &JobGraph, at: &Location) -> Result<Vec<Edge>, Error> {
    graph.parsed_edges().map_err(|e| Error::InvalidOutput {
        reason: e.to_string(),
        problems: Vec::new(),
        at: Box::new(at.clone()),
    })
}

fn reference((id, version): &TemplateKey) -> String {
    match version {
        Some(v) => format!("{id}@{v}"),
        None => format!("{id} (latest version)"),
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

/// Resolves a job document: a job (`name`, `execution`, `processing`, `jobGraph`, …), whose
/// `jobGraph` is resolved in place, or a bare graph `{vertices, edges}`. Every other field keeps
/// its value and place.
///
/// ```
/// use jobgraph_core::{ResolveOptions, TemplateSet, resolve_document_now};
/// let job = serde_json::json!({"name": "j", "jobGraph": {"vertices": [], "edges": []}});
/// let (resolved, _) = resolve_document_now(&job, &TemplateSet::new(), &ResolveOptions::default()).unwrap();
/// assert_eq!(resolved, job);
/// ```
pub async fn resolve_document<S: TemplateSource + ?Sized>(
    document: &serde_json::Value,
    source: &S,
    options: &ResolveOptions,
) -> Result<(serde_json::Value, IndexMap<String, Provenance>), Error> {
    resolve_document_with(document, source, &InProcess, options).await
}

/// [`resolve_document`] with every script run in `sandbox`.
pub async fn resolve_document_with<S: TemplateSource + ?Sized, B: Sandbox + ?Sized>(
    document: &serde_json::Value,
    source: &S,
    sandbox: &B,
    options: &ResolveOptions,
) -> Result<(serde_json::Value, IndexMap<String, Provenance>), Error> {
    let (graph_value, is_job) = match document.get("jobGraph") {
        Some(graph) => (graph, true),
        None => (document, false),
    };
    let problems = validate_job_graph(graph_value);
    if !problems.is_empty() {
        let problems = if is_job {
            problems
                .into_iter()
                .map(|mut p| {
                    p.pointer = format!("/jobGraph{}", p.pointer);
                    p
                })
                .collect()
        } else {
            problems
        };
        return Err(Error::InvalidJobGraph { problems });
    }
    let graph =
        JobGraph::from_value(graph_value.clone()).map_err(|message| Error::InvalidJobGraph {
            problems: vec![crate::Problem {
                pointer: String::new(),
                message,
            }],
        })?;
    // Validated above, as raw JSON: no need to serialize and validate it again.
    let resolution = resolve_valid(&graph, source, sandbox, options).await?;
    let resolved = resolution.graph.to_value();
    let document = if is_job {
        let mut document = document.clone();
        if let Some(slot) = document.get_mut("jobGraph") {
            *slot = resolved;
        }
        document
    } else {
        resolved
    };
    Ok((document, resolution.provenance))
}

/// [`resolve_document`] for sources that answer at once.
pub fn resolve_document_now<S: TemplateSource + ?Sized>(
    document: &serde_json::Value,
    source: &S,
    options: &ResolveOptions,
) -> Result<(serde_json::Value, IndexMap<String, Provenance>), Error> {
    ready_now(resolve_document(document, source, options))
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::future::Future;
    use std::pin::Pin;
    use std::task::{Context, Poll};

    use serde_json::json;

    use super::*;
    use crate::source::TemplateSet;

    /// A source that answers only on the second poll and records every request.
    struct LazySource {
        set: TemplateSet,
        requests: RefCell<Vec<(String, Option<u64>)>>,
    }

    struct Later(Option<Result<Template, FetchError>>, bool);

    impl Future for Later {
        type Output = Result<Template, FetchError>;
        fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
            if !self.1 {
                self.1 = true;
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
            Poll::Ready(self.0.take().unwrap_or(Err(FetchError::NotFound)))
        }
    }

    impl TemplateSource for LazySource {
        fn fetch(
            &self,
            id: &str,
            version: Option<u64>,
        ) -> impl Future<Output = Result<Template, FetchError>> {
            self.requests.borrow_mut().push((id.to_owned(), version));
            Later(
                Some(
                    self.set
                        .get(id, version)
                        .cloned()
                        .ok_or(FetchError::NotFound),
                ),
                false,
            )
        }
    }

    fn block_on<F: Future>(future: F) -> F::Output {
        let mut future = std::pin::pin!(future);
        let mut cx = Context::from_waker(std::task::Waker::noop());
        loop {
            if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
                return out;
            }
        }
    }

    fn template(id: &str, script: &str) -> Template {
        Template {
            id: id.into(),
            version: 1,
            name: id.into(),
            template: script.into(),
            ..Default::default()
        }
    }

    #[test]
    fn each_template_is_fetched_once_per_call_and_levels_fetch_together() {
        let leaf = template("leaf", "({vertices: [{type: 'x', name: 'v'}], edges: []})");
        let mid = template(
            "mid",
            "({vertices: [{type: 'template-operation', name: 'l1', templateId: 'leaf'}, \
                          {type: 'template-operation', name: 'l2', templateId: 'leaf'}], edges: []})",
        );
        let source = LazySource {
            set: [leaf, mid].into_iter().collect(),
            requests: RefCell::new(Vec::new()),
        };
        let graph: JobGraph = serde_json::from_value(json!({"vertices": [
            {"type": "template-operation", "name": "a", "templateId": "mid"},
            {"type": "template-operation", "name": "b", "templateId": "mid"},
            {"type": "template-operation", "name": "c", "templateId": "leaf"}
        ]}))
        .unwrap();
        let resolved = block_on(resolve(&graph, &source, &ResolveOptions::default())).unwrap();
        let names: Vec<_> = resolved.graph.vertices.iter().map(Vertex::name).collect();
        assert_eq!(names, ["a.l1.v", "a.l2.v", "b.l1.v", "b.l2.v", "c.v"]);
        // Level 1 asks for mid and leaf together; level 2 needs only leaf, already fetched.
        assert_eq!(
            *source.requests.borrow(),
            [("mid".to_owned(), None), ("leaf".to_owned(), None)]
        );
        // The synchronous entry point says clearly that this source must be awaited.
        let err = resolve_now(&graph, &source, &ResolveOptions::default()).unwrap_err();
        assert!(err.to_string().contains("asynchronous"), "{err}");
    }

    /// Regression (fuzz target `resolution`): a template returning k operations of itself ran
    /// k + k² + … scripts before the depth limit (k = 8: ~1.5e8 scripts); now the operations of
    /// one resolution are counted per level, before that level's scripts run.
    #[test]
    fn fan_out_stops_at_the_operation_budget_before_running_the_level() {
        let fan = template(
            "fan",
            "({vertices: Array.from({length: 8}, (_, i) => \
                 ({type: 'template-operation', name: 'f' + i, templateId: 'fan'})), edges: []})",
        );
        let set: TemplateSet = [fan].into_iter().collect();
        let graph: JobGraph = serde_json::from_value(json!({"vertices": [
            {"type": "template-operation", "name": "root", "templateId": "fan"}
        ]}))
        .unwrap();
        let options = ResolveOptions {
            limits: Limits {
                max_operations: 100,
                ..Limits::default()
            },
            ..ResolveOptions::default()
        };
        let err = resolve_now(&graph, &set, &options).unwrap_err();
        assert_eq!(err.code(), "MAX_OPERATIONS_EXCEEDED");
        // Levels: 1 + 8 + 64 = 73 operations ran; level 4 would add 512.
        assert_eq!(
            err.to_string(),
            "Too many template operations: expanding level 4 would bring the total to 585, more \
             than the maximum of 100 per resolution; raise `maxOperations` or make the templates \
             produce fewer operations (template fan@1, operation root > f0 > f0 > f0)"
        );
        assert!(err.to_string().starts_with(err.prefix()));
    }
}
