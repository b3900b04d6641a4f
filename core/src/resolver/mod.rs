//! The [`Resolver`]: recursive template resolution and the template test operation.
//!
//! Resolution runs in two phases:
//!
//! 1. **Expansion** (`expand`), level by level. All template operations of one level are
//!    collected, the templates they need are fetched together (each `id`/`version` at most once
//!    per call), their inputs are checked, and their scripts run (those not answered by the
//!    [`ExecutionCache`]), up to [`Sandbox::parallelism`] at a time. The subgraphs they yield
//!    form the next level. An operation at level [`MAX_DEPTH`]` + 1` is an error.
//! 2. **Assembly** (`assemble`), bottom-up. Every vertex a template operation `op` produces is
//!    renamed `op.<name>` (nested operations compound: `outer.inner.vertex`), edges are rewired
//!    through the templates' `inputs`/`outputs` maps (and `draftOutputs` in draft mode), and
//!    the subgraph takes the operation's place.
//!
//! ## Output order
//! Vertices keep the order of the job graph; each template operation is replaced, in place, by
//! the vertices of its subgraph in the script's order (recursively). Edges: first the job
//! graph's own edges in their order (rewired), then, for each template operation in vertex
//! order, the edges of its resolved subgraph (recursively in the same way). Edges are written in
//! the canonical form `from[:port] -> to[:port]`.
//!
//! ## Errors
//! When several operations fail, the error reported is the first in graph order (level by
//! level), whatever order the scripts finished in.

mod assemble;
mod cache;
mod execution;
mod expand;
mod schemas;
mod test_operation;

use std::sync::Arc;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::JobGraph;
use crate::Problem;
use crate::TemplateSource;
use crate::error::Error;
use crate::sandbox::{InProcess, Limits, Sandbox};
use crate::validate::validate_job_graph;

pub use cache::{CacheLimits, CacheStats, ExecutionCache};
pub use test_operation::{TestInput, TestRequest};

/// Deepest level of nested template operations that resolves (the job graph's own operations
/// are level 1).
pub const MAX_DEPTH: usize = 10;

/// What every resolution of a [`Resolver`] shares. JSON names are camelCase; missing fields
/// take the default.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ResolveOptions {
    /// What `user.getName()` returns in every script. Default `anonymous`.
    pub user: String,
    /// Draft mode for every operation, as if each had `draftMode: true`.
    pub draft: bool,
    /// Limits of every script execution.
    pub limits: Limits,
    /// Template operations one resolution may expand, all levels together (not per script: a
    /// template returning k operations of itself would otherwise run k + k² + … + k¹⁰ scripts
    /// before the depth limit stops it). Default 1000.
    pub max_operations: usize,
    /// Vertices the templates of one resolution may produce, all levels together: every vertex
    /// of every template result except its `template-operation`s (which are replaced), cache
    /// hits included; the job graph's own vertices are not counted. Checked as each result
    /// arrives (docs/resolution.md, "Output budget"). Default 100 000.
    pub max_resolved_vertices: usize,
    /// Bytes the templates of one resolution may produce: the sum of the compact JSON lengths
    /// of every template result, as the script returned it (edges, extra fields and
    /// `template-operation`s included; renaming is not counted). Checked as each result
    /// arrives. Default 32 MiB.
    pub max_resolved_bytes: usize,
}

impl Default for ResolveOptions {
    fn default() -> Self {
        ResolveOptions {
            user: "anonymous".into(),
            draft: false,
            limits: Limits::default(),
            max_operations: 1_000,
            max_resolved_vertices: 100_000,
            max_resolved_bytes: 32 * 1024 * 1024,
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

/// A resolved job document (see [`Resolver::resolve_document`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedDocument {
    /// The document with its graph resolved; every other field keeps its value and place.
    pub document: Value,
    /// As [`Resolution::provenance`].
    pub provenance: IndexMap<String, Provenance>,
}

/// Resolves job graphs and tests templates: built once from a template source, a sandbox and
/// options, then used for any number of calls. Results of template executions are kept in an
/// [`ExecutionCache`] across calls, so that re-resolving a job after one operation's inputs
/// changed runs one script.
///
/// The async methods work with any [`TemplateSource`]; the `_blocking` forms wait on the
/// calling thread (do not call them from an async runtime's own threads).
///
/// ```
/// use jobgraph_core::{JobGraph, Resolver, Template, TemplateSet};
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
/// let resolver = Resolver::builder(templates).user("ada").build();
/// let resolved = resolver.resolve_blocking(&job).unwrap();
/// let names: Vec<_> = resolved.graph.vertices.iter().map(|v| v.name()).collect();
/// assert_eq!(names, ["in", "errors.f", "out"]);
/// assert_eq!(resolved.graph.edges, ["in -> errors.f:input", "errors.f:output -> out"]);
/// assert_eq!(resolved.provenance["errors.f"].original_name, "f");
/// // A second resolution of the same job runs no script.
/// resolver.resolve_blocking(&job).unwrap();
/// assert_eq!(resolver.cache().stats().hits, 1);
/// ```
pub struct Resolver<S> {
    source: S,
    sandbox: Arc<dyn Sandbox>,
    options: ResolveOptions,
    cache: ExecutionCache,
}

impl<S> std::fmt::Debug for Resolver<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Resolver")
            .field("options", &self.options)
            .field("cache", &self.cache)
            .finish_non_exhaustive()
    }
}

/// Builds a [`Resolver`]; every setting has a default (in-process sandbox, default options, a
/// default [`ExecutionCache`]).
pub struct ResolverBuilder<S> {
    source: S,
    sandbox: Option<Arc<dyn Sandbox>>,
    options: ResolveOptions,
    cache: Option<ExecutionCache>,
}

impl<S> ResolverBuilder<S> {
    /// Where scripts run (default [`InProcess`]).
    pub fn sandbox(mut self, sandbox: impl Sandbox + 'static) -> Self {
        self.sandbox = Some(Arc::new(sandbox));
        self
    }

    /// A sandbox shared with other resolvers (a worker pool, for example).
    pub fn shared_sandbox(mut self, sandbox: Arc<dyn Sandbox>) -> Self {
        self.sandbox = Some(sandbox);
        self
    }

    /// Every option at once.
    pub fn options(mut self, options: ResolveOptions) -> Self {
        self.options = options;
        self
    }

    /// What `user.getName()` returns.
    pub fn user(mut self, user: impl Into<String>) -> Self {
        self.options.user = user.into();
        self
    }

    /// Draft mode for every operation.
    pub fn draft(mut self, draft: bool) -> Self {
        self.options.draft = draft;
        self
    }

    /// Limits of every script execution.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.options.limits = limits;
        self
    }

    /// Template operations one resolution may expand.
    pub fn max_operations(mut self, max: usize) -> Self {
        self.options.max_operations = max;
        self
    }

    /// Vertices the templates of one resolution may produce
    /// ([`ResolveOptions::max_resolved_vertices`]).
    pub fn max_resolved_vertices(mut self, max: usize) -> Self {
        self.options.max_resolved_vertices = max;
        self
    }

    /// Bytes of JSON the templates of one resolution may produce
    /// ([`ResolveOptions::max_resolved_bytes`]).
    pub fn max_resolved_bytes(mut self, max: usize) -> Self {
        self.options.max_resolved_bytes = max;
        self
    }

    /// The execution cache (shared with every resolver given a clone of it).
    pub fn cache(mut self, cache: ExecutionCache) -> Self {
        self.cache = Some(cache);
        self
    }

    /// The resolver.
    pub fn build(self) -> Resolver<S> {
        Resolver {
            source: self.source,
            sandbox: self.sandbox.unwrap_or_else(|| Arc::new(InProcess)),
            options: self.options,
            cache: self
                .cache
                .unwrap_or_else(|| ExecutionCache::new(CacheLimits::default())),
        }
    }
}

impl<S> Resolver<S> {
    /// A builder over `source`.
    pub fn builder(source: S) -> ResolverBuilder<S> {
        ResolverBuilder {
            source,
            sandbox: None,
            options: ResolveOptions::default(),
            cache: None,
        }
    }

    /// A resolver over `source` with every default.
    pub fn new(source: S) -> Self {
        Self::builder(source).build()
    }

    /// Its options.
    pub fn options(&self) -> &ResolveOptions {
        &self.options
    }

    /// Its template source.
    pub fn source(&self) -> &S {
        &self.source
    }

    /// Its execution cache (clear it, read its counters, share it).
    pub fn cache(&self) -> &ExecutionCache {
        &self.cache
    }
}

impl<S: TemplateSource> Resolver<S> {
    /// Resolves every template operation of `graph`.
    pub async fn resolve(&self, graph: &JobGraph) -> Result<Resolution, Error> {
        let problems = validate_job_graph(&graph.to_value());
        if !problems.is_empty() {
            return Err(Error::InvalidJobGraph { problems });
        }
        self.resolve_valid(graph).await
    }

    /// Resolves a graph that has already passed [`validate_job_graph`].
    async fn resolve_valid(&self, graph: &JobGraph) -> Result<Resolution, Error> {
        let mut tree = expand::Tree::new(graph.clone(), self.options.draft)?;
        tree.expand(self).await?;
        tree.assemble()
    }

    /// Resolves a job document: a job (`name`, `execution`, `processing`, `jobGraph`, …),
    /// whose `jobGraph` is resolved in place, or a bare graph `{vertices, edges}`.
    ///
    /// ```
    /// use jobgraph_core::{Resolver, TemplateSet};
    /// let job = serde_json::json!({"name": "j", "jobGraph": {"vertices": [], "edges": []}});
    /// let resolved = Resolver::new(TemplateSet::new()).resolve_document_blocking(&job).unwrap();
    /// assert_eq!(resolved.document, job);
    /// let no_graph = serde_json::json!({"name": "j", "execution": "SYNCHRONOUS"});
    /// let err = Resolver::new(TemplateSet::new()).resolve_document_blocking(&no_graph).unwrap_err();
    /// assert!(err.to_string().starts_with("Invalid job graph: /jobGraph: is missing"));
    /// ```
    pub async fn resolve_document(&self, document: &Value) -> Result<ResolvedDocument, Error> {
        let (graph_value, is_job) = match document.get("jobGraph") {
            Some(graph) => (graph, true),
            None => (document, false),
        };
        // A job document without its graph: say so, rather than that `vertices` is missing.
        const JOB_FIELDS: [&str; 4] = ["name", "execution", "processing", "id"];
        if !is_job
            && document.get("vertices").is_none()
            && JOB_FIELDS.iter().any(|field| document.get(field).is_some())
        {
            return Err(Error::InvalidJobGraph {
                problems: vec![Problem {
                    pointer: "/jobGraph".into(),
                    message: "is missing: a job document carries its graph in `jobGraph` \
                              (`{\"vertices\": [...], \"edges\": [...]}`); a bare graph has \
                              `vertices` at the top level"
                        .into(),
                }],
            });
        }
        let within = |problems: Vec<Problem>| {
            if is_job {
                problems
                    .into_iter()
                    .map(|mut p| {
                        p.pointer = format!("/jobGraph{}", p.pointer);
                        p
                    })
                    .collect()
            } else {
                problems
            }
        };
        let problems = validate_job_graph(graph_value);
        if !problems.is_empty() {
            return Err(Error::InvalidJobGraph {
                problems: within(problems),
            });
        }
        let graph =
            JobGraph::from_value(graph_value.clone()).map_err(|e| Error::InvalidJobGraph {
                problems: within(vec![e]),
            })?;
        // Validated above, as raw JSON: no need to serialize and validate it again.
        let resolution = self.resolve_valid(&graph).await?;
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
        Ok(ResolvedDocument {
            document,
            provenance: resolution.provenance,
        })
    }

    /// [`Resolver::resolve`], waiting on the calling thread.
    pub fn resolve_blocking(&self, graph: &JobGraph) -> Result<Resolution, Error> {
        futures_executor::block_on(self.resolve(graph))
    }

    /// [`Resolver::resolve_document`], waiting on the calling thread.
    pub fn resolve_document_blocking(&self, document: &Value) -> Result<ResolvedDocument, Error> {
        futures_executor::block_on(self.resolve_document(document))
    }
}

impl<S> Resolver<S> {
    /// [`Resolver::test`], waiting on the calling thread.
    pub fn test_blocking(&self, request: &TestRequest) -> Result<JobGraph, Error> {
        futures_executor::block_on(self.test(request))
    }
}

#[cfg(test)]
mod tests;
