//! WebAssembly bindings of `jobgraph-core`.
//!
//! This is the raw layer the npm package `jobgraph` wraps (`pkg/index.js`). Documents (jobs,
//! graphs, templates) cross the boundary as JSON text, so the wasm build reads exactly what the
//! native build reads; options and errors cross as plain objects (serde-wasm-bindgen). Errors are
//! thrown as plain objects `{code, prefix, message, …}` that the wrapper turns into
//! `JobgraphError`s.

#![warn(missing_docs)]

/// boa allocates heavily and Rust's default wasm allocator (dlmalloc) is slow at it; talc is
/// made for WebAssembly (bench/RESULTS.md has the figures). Counted, so that
/// `limits.maxMemoryBytes` is enforced in the browser too.
#[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: jobgraph_core::memory::CountingAllocator<talc::wasm::WasmDynamicTalc> =
    jobgraph_core::memory::CountingAllocator::new(talc::wasm::new_wasm_dynamic_allocator());

mod convert;
mod edges;
mod host_stack;
#[cfg(feature = "incremental")]
mod incremental;
mod pipeline;
mod source;

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use jobgraph_core::{
    ExecutionCache, Limits, ResolveOptions, Resolver, TemplateSet, TestInput, TestRequest,
    validate_job_graph,
};
use js_sys::Function;
use serde::Deserialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

use convert::{RawError, from_js, json_out, parse_json, to_js};
pub use edges::{format_edge_js, parse_edge_js};
pub use pipeline::{EventSet, check_query, match_query_json, run_pipeline_json, run_pipeline_on};
use source::{Source, source_of};

/// Options of `resolve`, as the wrapper passes them.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct RawResolveOptions {
    user: Option<String>,
    draft: bool,
    limits: Option<Limits>,
    max_operations: Option<usize>,
    max_resolved_vertices: Option<usize>,
    max_resolved_bytes: Option<usize>,
    provenance: bool,
}

impl RawResolveOptions {
    fn resolve_options(&self) -> ResolveOptions {
        let defaults = ResolveOptions::default();
        ResolveOptions {
            user: self.user.clone().unwrap_or(defaults.user),
            draft: self.draft,
            limits: self.limits.unwrap_or_default(),
            max_operations: self.max_operations.unwrap_or(defaults.max_operations),
            max_resolved_vertices: self
                .max_resolved_vertices
                .unwrap_or(defaults.max_resolved_vertices),
            max_resolved_bytes: self
                .max_resolved_bytes
                .unwrap_or(defaults.max_resolved_bytes),
        }
    }
}

/// Options of `testTemplate`.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct RawTestOptions {
    check_valid_job_graph: bool,
    is_draft: bool,
    user: Option<String>,
    limits: Option<Limits>,
}

/// Resolves a job document (JSON text). `templates` is JSON text of a template array, or
/// `undefined` when `fetch_template` supplies them. Nothing runs until the returned
/// [`ResolveCall`] is polled.
#[wasm_bindgen(js_name = resolveJson)]
pub fn resolve_json(
    job: String,
    templates: Option<String>,
    fetch_template: Option<Function>,
    options: JsValue,
) -> ResolveCall {
    pending(async move {
        let options: RawResolveOptions = from_js(options, "options")?;
        let document: Value = parse_json(&job, "job")?;
        let source = source_of(templates, fetch_template)?;
        resolve_with_cache(&document, source, &options, ExecutionCache::disabled()).await
    })
}

/// One resolution under way, returned by `resolveJson`: the package's wrapper polls it
/// (`poll`) until it gives its result, awaiting in between the promises its `fetchTemplate`
/// returned.
///
/// Why the wrapper drives it rather than wasm-bindgen-futures' executor: that executor polls in
/// microtasks of its own, so a trap while a script ran after a template fetch was thrown from
/// one of them — an uncaught exception (in Node, the process's) — and the call's promise never
/// settled. Polled from the wrapper's own code, a trap is thrown to the wrapper, which fails
/// the call with `WASM_TRAP` and takes a fresh instance into service.
#[wasm_bindgen]
pub struct ResolveCall {
    future: Option<Resolution>,
}

/// The future of one resolution: its `{output, provenance?}` or the error to throw.
type Resolution = Pin<Box<dyn Future<Output = Result<JsValue, JsValue>>>>;

#[wasm_bindgen]
impl ResolveCall {
    /// Runs the resolution as far as it goes now: its result (`{output, provenance?}`) once
    /// done, `undefined` while it waits for a template fetch — poll again after one of the
    /// promises `fetchTemplate` returned has settled. Errors are thrown.
    pub fn poll(&mut self) -> Result<JsValue, JsValue> {
        let Some(future) = self.future.as_mut() else {
            return Err(RawError::usage(
                "ResolveCall.poll: the resolution has already ended".into(),
            )
            .into_js());
        };
        // No waker is needed: the futures awaited inside (`JsFuture`s of the fetch promises)
        // keep their outcome until polled, and the wrapper polls again after a settlement.
        let mut context = Context::from_waker(Waker::noop());
        match future.as_mut().poll(&mut context) {
            Poll::Pending => Ok(JsValue::UNDEFINED),
            Poll::Ready(result) => {
                self.future = None;
                result
            }
        }
    }
}

fn pending<F>(future: F) -> ResolveCall
where
    F: Future<Output = Result<JsValue, JsValue>> + 'static,
{
    ResolveCall {
        future: Some(Box::pin(future)),
    }
}

/// A resolver that keeps the results of template executions across calls (the npm package's
/// `createResolver`): re-resolving a job after one operation's inputs changed runs one script.
#[wasm_bindgen(js_name = CachedResolver)]
pub struct CachedResolver {
    cache: ExecutionCache,
}

#[wasm_bindgen(js_class = CachedResolver)]
impl CachedResolver {
    /// A resolver whose cache keeps at most `max_entries` results and `max_bytes` bytes
    /// (defaults: 1024 and 16 MiB).
    #[wasm_bindgen(constructor)]
    pub fn new(max_entries: Option<usize>, max_bytes: Option<usize>) -> CachedResolver {
        let defaults = jobgraph_core::CacheLimits::default();
        CachedResolver {
            cache: ExecutionCache::new(jobgraph_core::CacheLimits {
                max_entries: max_entries.unwrap_or(defaults.max_entries),
                max_bytes: max_bytes.unwrap_or(defaults.max_bytes),
            }),
        }
    }

    /// As `resolveJson`, through this resolver's cache.
    #[wasm_bindgen(js_name = resolveJson)]
    pub fn resolve_json(
        &self,
        job: String,
        templates: Option<String>,
        fetch_template: Option<Function>,
        options: JsValue,
    ) -> ResolveCall {
        let cache = self.cache.clone();
        pending(async move {
            let options: RawResolveOptions = from_js(options, "options")?;
            let document: Value = parse_json(&job, "job")?;
            let source = source_of(templates, fetch_template)?;
            resolve_with_cache(&document, source, &options, cache).await
        })
    }

    /// Forgets every kept result.
    pub fn clear(&self) {
        self.cache.clear();
    }

    /// `{entries, bytes, hits, misses}`.
    pub fn stats(&self) -> Result<JsValue, JsValue> {
        let stats = self.cache.stats();
        to_js(&serde_json::json!({
            "entries": stats.entries, "bytes": stats.bytes,
            "hits": stats.hits, "misses": stats.misses
        }))
    }
}

async fn resolve_with_cache(
    document: &Value,
    source: Source,
    options: &RawResolveOptions,
    cache: ExecutionCache,
) -> Result<JsValue, JsValue> {
    let resolver = Resolver::builder(source)
        .options(options.resolve_options())
        .cache(cache)
        .build();
    let resolved = resolver
        .resolve_document(document)
        .await
        .map_err(|e| RawError::from_core(&e).into_js())?;
    let out = if options.provenance {
        serde_json::json!({"output": resolved.document, "provenance": resolved.provenance})
    } else {
        serde_json::json!({"output": resolved.document})
    };
    json_out(&out)
}

/// Runs the test operation on a template (JSON text) with input values (JSON text).
#[wasm_bindgen(js_name = testTemplateJson)]
pub fn test_template_json(
    template: String,
    values: String,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let options: RawTestOptions = from_js(options, "options")?;
    let request = TestRequest {
        template: parse_json(&template, "template")?,
        input: TestInput {
            is_draft: options.is_draft,
            values: parse_json(&values, "values")?,
        },
        check_valid_job_graph: options.check_valid_job_graph,
    };
    let user = options.user.unwrap_or_else(|| "anonymous".into());
    let graph = Resolver::builder(TemplateSet::new())
        .user(user)
        .limits(options.limits.unwrap_or_default())
        .cache(ExecutionCache::disabled())
        .build()
        .test_blocking(&request)
        .map_err(|e| RawError::from_core(&e).into_js())?;
    json_out(&graph.to_value())
}

/// Every problem of `values` (JSON text) against an input schema (JSON text, JSON Schema
/// 2020-12 as templates' `inputSchema`), each `{pointer, message}`; defaults are not filled.
#[wasm_bindgen(js_name = validateInputsJson)]
pub fn validate_inputs_json(schema: String, values: String) -> Result<JsValue, JsValue> {
    let schema: Value = parse_json(&schema, "inputSchema")?;
    let values: Value = parse_json(&values, "values")?;
    let compiled = jobgraph_core::InputSchema::compile(Some(&schema)).map_err(|e| {
        RawError::usage(format!(
            "inputSchema is not a valid JSON Schema 2020-12: {e}"
        ))
        .into_js()
    })?;
    to_js(&compiled.problems(&values))
}

/// Every problem of a graph (JSON text), each `{pointer, message}`.
#[wasm_bindgen(js_name = validateJobGraphJson)]
pub fn validate_job_graph_json(graph: String) -> Result<JsValue, JsValue> {
    let graph: Value = parse_json(&graph, "graph")?;
    to_js(&validate_job_graph(&graph))
}
