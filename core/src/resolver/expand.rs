//! Expansion: level by level, every template operation is replaced by the subgraph its
//! template's script yields, kept as a tree of graphs for assembly.

use std::collections::HashMap;
use std::sync::Arc;

use futures_util::StreamExt;
use serde_json::Value;
use web_time::{Duration, Instant};

use super::cache::CacheKey;
use super::execution::{PreparedTemplate, check_inputs, read_output, script_error};
use super::schemas;
use super::{ResolveOptions, Resolver};
use crate::JobGraph;
use crate::edge::Edge;
use crate::error::{Error, Location, ResolvedLimit};
use crate::inputs::MatchBudget;
use crate::sandbox::{LimitKind, Limits, ScriptError, ScriptFailure, ScriptInput, compact_len};
use crate::vertex::{TEMPLATE_OPERATION, TemplateOperation};
use crate::{FetchError, TemplateSource};

pub(super) type NodeId = usize;
type TemplateKey = (String, Option<u64>);

/// One graph of the expansion: the job graph (root) or a subgraph a template produced.
pub(super) struct Node {
    pub graph: JobGraph,
    pub edges: Vec<Edge>,
    /// The operation this subgraph replaces; `None` for the job graph.
    pub origin: Option<Origin>,
    pub draft: bool,
    /// Template operations of this graph: vertex index → child node, in vertex order.
    pub children: Vec<(usize, NodeId)>,
}

/// The template operation a subgraph replaces.
pub(super) struct Origin {
    pub template: Arc<crate::Template>,
    pub at: Location,
    /// `op (id@version)` for each operation from the root down, for depth errors.
    pub chain: Vec<String>,
}

/// The job graph and every subgraph expanded from it.
pub(super) struct Tree {
    pub nodes: Vec<Node>,
}

/// A template operation waiting to run.
struct Pending {
    parent: NodeId,
    vertex: usize,
    op: TemplateOperation,
    name: String,
    key: TemplateKey,
}

/// A pending operation whose template was found and whose inputs passed: ready to run.
struct Ready {
    pending_index: usize,
    prepared: Arc<PreparedTemplate>,
    values: serde_json::Map<String, Value>,
    draft: bool,
    at: Location,
    cache_key: CacheKey,
}

impl Tree {
    pub fn new(graph: JobGraph, draft: bool) -> Result<Self, Error> {
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

    /// Expands every level, fetching templates from the resolver's source and running scripts
    /// in its sandbox (through its cache).
    pub async fn expand<S: TemplateSource>(&mut self, resolver: &Resolver<S>) -> Result<(), Error> {
        let options = &resolver.options;
        let deadline = Deadline::new(&options.limits);
        let mut templates: HashMap<TemplateKey, Result<Arc<crate::Template>, FetchError>> =
            HashMap::new();
        let mut prepared: HashMap<TemplateKey, Arc<PreparedTemplate>> = HashMap::new();
        let mut frontier: Vec<NodeId> = vec![0];
        let mut level = 1;
        let mut expanded = 0usize;
        let mut produced = Produced::default();
        while !frontier.is_empty() {
            let pending = self.pending_operations(&frontier)?;
            let Some(first) = pending.first() else {
                break;
            };
            if level > super::MAX_DEPTH {
                return Err(self.too_deep(first));
            }
            if deadline.passed() {
                return Err(deadline.error(&self.location_of(first)));
            }
            expanded += pending.len();
            if expanded > options.max_operations {
                return Err(Error::TooManyOperations {
                    max: options.max_operations,
                    level,
                    total: expanded,
                    at: Box::new(self.location_of(first)),
                });
            }
            fetch_level(&resolver.source, &pending, &mut templates).await;

            // Check every operation in graph order up to the first that cannot run: its error
            // is reported unless a script before it fails.
            let mut ready = Vec::with_capacity(pending.len());
            let mut blocked = None;
            for (index, p) in pending.iter().enumerate() {
                match self.prepare(index, p, &templates, &mut prepared, resolver, &deadline) {
                    Ok(r) => ready.push(r),
                    Err(e) => {
                        blocked = Some(e);
                        break;
                    }
                }
            }

            let outputs = run_level(resolver, &ready, &deadline, &mut produced, level).await;
            let mut next = Vec::with_capacity(ready.len());
            for (r, output) in ready.into_iter().zip(outputs) {
                let value = output?;
                let graph = read_output(Value::clone(&value), true, &r.at)?;
                let edges = parse_edges(&graph, &r.at)?;
                let p = &pending[r.pending_index];
                let parent = &self.nodes[p.parent];
                let mut chain = parent
                    .origin
                    .as_ref()
                    .map(|o| o.chain.clone())
                    .unwrap_or_default();
                chain.push(format!("{} ({})", p.name, r.prepared.template.label()));
                let id = self.nodes.len();
                self.nodes.push(Node {
                    graph,
                    edges,
                    origin: Some(Origin {
                        template: Arc::clone(&r.prepared.template),
                        at: r.at,
                        chain,
                    }),
                    draft: r.draft,
                    children: Vec::new(),
                });
                self.nodes[p.parent].children.push((p.vertex, id));
                next.push(id);
            }
            if let Some(error) = blocked {
                return Err(error);
            }
            frontier = next;
            level += 1;
        }
        Ok(())
    }

    /// Finds the template of a pending operation and checks its inputs.
    fn prepare<S>(
        &self,
        pending_index: usize,
        p: &Pending,
        templates: &HashMap<TemplateKey, Result<Arc<crate::Template>, FetchError>>,
        prepared: &mut HashMap<TemplateKey, Arc<PreparedTemplate>>,
        resolver: &Resolver<S>,
        deadline: &Deadline,
    ) -> Result<Ready, Error> {
        let parent = &self.nodes[p.parent];
        let mut at = self.location_of(p);
        at.template = None;
        at.template_id = Some(p.op.template_id.clone());
        at.template_version = p.op.template_version;
        let template = match templates.get(&p.key) {
            Some(Ok(t)) => Arc::clone(t),
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
        let prepared = match prepared.get(&p.key) {
            Some(known) => Arc::clone(known),
            None => {
                let new = Arc::new(PreparedTemplate::new(template, schemas::shared(), &at)?);
                prepared.insert(p.key.clone(), Arc::clone(&new));
                new
            }
        };
        let budget = MatchBudget::new(&resolver.options.limits, Some(deadline.at));
        let values = check_inputs(&prepared, p.op.template_inputs.clone(), &at, &budget)?;
        let draft = p.op.draft_mode || parent.draft;
        let options = &resolver.options;
        let cache_key = CacheKey::new(
            &prepared.template,
            &prepared.source_hash,
            &values,
            draft,
            &options.user,
            &options.limits,
        );
        Ok(Ready {
            pending_index,
            prepared,
            values,
            draft,
            at,
            cache_key,
        })
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
                let op = TemplateOperation::from_vertex(v).map_err(|e| {
                    let at = node
                        .origin
                        .as_ref()
                        .map(|o| o.at.clone())
                        .unwrap_or_default();
                    // The problem is the vertex's own (no pointer): its message names it.
                    Error::InvalidOutput {
                        reason: e.message,
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
        let origin = self.nodes[first.parent].origin.as_ref();
        let mut chain = origin.map(|o| o.chain.clone()).unwrap_or_default();
        chain.push(format!("{} ({})", first.name, reference(&first.key)));
        Error::TooDeep {
            max: super::MAX_DEPTH,
            chain: chain.join(" > "),
            at: Box::new(self.location_of(first)),
        }
    }
}

/// Fetches every template of a level not fetched before, all together.
async fn fetch_level<S: TemplateSource>(
    source: &S,
    pending: &[Pending],
    templates: &mut HashMap<TemplateKey, Result<Arc<crate::Template>, FetchError>>,
) {
    let mut wanted: Vec<&TemplateKey> = Vec::new();
    for p in pending {
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
        templates.insert(key.clone(), result.map(Arc::new));
    }
}

/// What the template results of one resolution add up to so far, for
/// `ResolveOptions::max_resolved_vertices` and `max_resolved_bytes`.
#[derive(Default)]
struct Produced {
    vertices: usize,
    bytes: usize,
}

impl Produced {
    /// Counts one template result (its vertices but its `template-operation`s, and its compact
    /// JSON length); the error when a total passes its maximum.
    fn add(
        &mut self,
        value: &Value,
        options: &ResolveOptions,
        level: usize,
        at: &Location,
    ) -> Result<(), Error> {
        let vertices = value
            .get("vertices")
            .and_then(Value::as_array)
            .map_or(0, |all| {
                all.iter()
                    .filter(|v| v.get("type").and_then(Value::as_str) != Some(TEMPLATE_OPERATION))
                    .count()
            });
        self.vertices = self.vertices.saturating_add(vertices);
        self.bytes = self.bytes.saturating_add(compact_len(value));
        let (limit, total, max) = if self.vertices > options.max_resolved_vertices {
            let max = options.max_resolved_vertices;
            (ResolvedLimit::Vertices, self.vertices, max)
        } else if self.bytes > options.max_resolved_bytes {
            (ResolvedLimit::Bytes, self.bytes, options.max_resolved_bytes)
        } else {
            return Ok(());
        };
        Err(Error::ResolvedTooLarge {
            limit,
            max,
            level,
            total,
            at: Box::new(at.clone()),
        })
    }
}

/// Runs the scripts of a level's ready operations (those the cache does not answer), up to
/// the sandbox's parallelism at a time. Results come back in the operations' order; after the
/// first failure in that order, later operations are not run. Each result is counted in
/// `produced` as it arrives: the first that passes a maximum fails there, so at most the
/// sandbox's parallelism of results beyond the budget are ever held.
async fn run_level<S>(
    resolver: &Resolver<S>,
    ready: &[Ready],
    deadline: &Deadline,
    produced: &mut Produced,
    level: usize,
) -> Vec<Result<Arc<Value>, Error>> {
    let options = &resolver.options;
    let parallelism = resolver.sandbox.parallelism().max(1);
    let mut results = futures_util::stream::iter(ready.iter().map(|r| async move {
        if let Some(hit) = resolver.cache.get(&r.cache_key) {
            return Ok(hit);
        }
        let input = ScriptInput {
            source: &r.prepared.template.template,
            declared: &r.prepared.declared,
            variables: &r.values,
            draft: r.draft,
            user: &options.user,
        };
        let (limits, capped) = deadline.limits_for_next_script(&options.limits);
        if limits.timeout_ms == 0 {
            return Err(deadline.error(&r.at));
        }
        let output = match resolver.sandbox.run(input, &limits).await {
            Ok(output) => output,
            Err(ScriptError::Failed(failure))
                if capped && failure.limit.is_some_and(|hit| hit.kind == LimitKind::Time) =>
            {
                return Err(deadline.error(&r.at));
            }
            Err(e) => return Err(script_error(e, &r.at)),
        };
        let value = Arc::new(output.value);
        if !output.nondeterministic {
            resolver
                .cache
                .insert(r.cache_key.clone(), Arc::clone(&value));
        }
        Ok(value)
    }))
    .buffered(parallelism);
    let mut out = Vec::with_capacity(ready.len());
    while let Some(mut result) = results.next().await {
        if let (Ok(value), Some(r)) = (&result, ready.get(out.len()))
            && let Err(e) = produced.add(value, options, level, &r.at)
        {
            result = Err(e);
        }
        let failed = result.is_err();
        out.push(result);
        if failed {
            break;
        }
    }
    out
}

/// The end of a resolution's time (`Limits::resolution_timeout_ms`), counted from the start
/// of its expansion.
struct Deadline {
    at: Instant,
    limits: Limits,
}

impl Deadline {
    fn new(limits: &Limits) -> Self {
        Deadline {
            at: Instant::now() + Duration::from_millis(limits.resolution_timeout_ms),
            limits: *limits,
        }
    }

    fn passed(&self) -> bool {
        Instant::now() >= self.at
    }

    /// The limits of a script started now: its time limit cut to what remains of the
    /// resolution (0 when nothing does), and whether it was cut.
    fn limits_for_next_script(&self, limits: &Limits) -> (Limits, bool) {
        let remaining = self.at.saturating_duration_since(Instant::now());
        let remaining_ms = u64::try_from(remaining.as_millis()).unwrap_or(u64::MAX);
        if remaining_ms >= limits.timeout_ms {
            return (*limits, false);
        }
        let mut cut = *limits;
        cut.timeout_ms = remaining_ms;
        (cut, true)
    }

    /// `JavaScript execution failed: resolution time limit of … ms exceeded …` at `at`.
    fn error(&self, at: &Location) -> Error {
        Error::ScriptFailed {
            failure: Box::new(ScriptFailure::limit(
                self.limits.hit(LimitKind::ResolutionTime),
            )),
            at: Box::new(at.clone()),
        }
    }
}

pub(super) fn parse_edges(graph: &JobGraph, at: &Location) -> Result<Vec<Edge>, Error> {
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
