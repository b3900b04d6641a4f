//! WebAssembly bindings of `jobgraph-core`.
//!
//! This is the raw layer the npm package `jobgraph` wraps (`pkg/index.js`). Documents (jobs,
//! graphs, templates) cross the boundary as JSON text, so the wasm build reads exactly what the
//! native build reads; options and errors cross as plain objects (serde-wasm-bindgen). Errors are
//! thrown as plain objects `{code, prefix, message, …}` that the wrapper turns into
//! `JobgraphError`s.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

/// boa allocates heavily and Rust's default wasm allocator (dlmalloc) is slow at it; talc is
/// made for WebAssembly (bench/RESULTS.md has the figures). Counted, so that
/// `limits.maxMemoryBytes` is enforced in the browser too.
#[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: jobgraph_core::memory::CountingAllocator<talc::wasm::WasmDynamicTalc> =
    jobgraph_core::memory::CountingAllocator::new(talc::wasm::new_wasm_dynamic_allocator());

use jobgraph_core::{
    Error, ExecutionCache, FetchError, Limits, ResolveOptions, Resolver, Template, TemplateSet,
    TemplateSource, TestInput, TestRequest, parse_edge, validate_job_graph,
};
use js_sys::{Function, Promise};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// Argument slots (8 bytes each) pushed on the host's call stack to see whether it has room:
/// 256 KiB, more than the deepest stretch of recursion between two checks takes there.
const HOST_STACK_PROBE_ARGS: u32 = 32 * 1024;

thread_local! {
    /// `Function.prototype` (callable, does nothing) and an array of
    /// [`HOST_STACK_PROBE_ARGS`] zeros to call it with.
    static HOST_STACK_PROBE: Option<(Function, js_sys::Array)> = host_stack_probe();
}

fn host_stack_probe() -> Option<(Function, js_sys::Array)> {
    let constructor =
        js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("Function")).ok()?;
    let prototype = js_sys::Reflect::get(&constructor, &JsValue::from_str("prototype")).ok()?;
    let noop = prototype.dyn_into::<Function>().ok()?;
    let args = js_sys::Array::new_with_length(HOST_STACK_PROBE_ARGS);
    args.fill(&JsValue::from_f64(0.0), 0, HOST_STACK_PROBE_ARGS);
    Some((noop, args))
}

/// Whether the host's own call stack (V8's) has room for another stretch of recursion: the
/// engine's frames live there too, and exhausting it traps the instance. `Reflect.apply` with
/// [`HOST_STACK_PROBE_ARGS`] arguments throws `RangeError` when they do not fit.
fn host_stack_has_room() -> bool {
    HOST_STACK_PROBE.with(|probe| match probe {
        Some((noop, args)) => js_sys::Reflect::apply(noop, &JsValue::UNDEFINED, args).is_ok(),
        None => true,
    })
}

/// Runs when the instance starts: registers [`host_stack_has_room`] with the sandbox.
#[wasm_bindgen(start)]
fn start() {
    jobgraph_core::set_host_stack_check(host_stack_has_room);
}

/// Options of `resolve`, as the wrapper passes them.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct RawResolveOptions {
    user: Option<String>,
    draft: bool,
    limits: Option<Limits>,
    max_operations: Option<usize>,
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

/// The error object thrown to JavaScript.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RawError {
    code: String,
    prefix: String,
    message: String,
    template_id: Option<String>,
    template_version: Option<u64>,
    operation_path: Vec<String>,
    line: Option<u32>,
    column: Option<u32>,
    pointer: Option<String>,
    problems: Vec<jobgraph_core::Problem>,
    limit: Option<jobgraph_core::LimitHit>,
}

impl RawError {
    fn from_core(error: &Error) -> Self {
        let location = error.location();
        let failure = error.script_failure();
        let problems = error.problems().to_vec();
        RawError {
            code: error.code().to_owned(),
            prefix: error.prefix().to_owned(),
            message: error.to_string(),
            template_id: location.and_then(|l| l.template_id.clone()),
            template_version: location.and_then(|l| l.template_version),
            operation_path: location
                .map(|l| l.operation_path.clone())
                .unwrap_or_default(),
            line: failure.and_then(|f| f.line),
            column: failure.and_then(|f| f.column),
            pointer: problems.first().map(|p| p.pointer.clone()),
            limit: failure.and_then(|f| f.limit),
            problems,
        }
    }

    /// An error of the binding layer itself (no location).
    fn new(code: &str, prefix: &str, message: String) -> Self {
        RawError {
            code: code.into(),
            prefix: prefix.into(),
            message,
            template_id: None,
            template_version: None,
            operation_path: Vec::new(),
            line: None,
            column: None,
            pointer: None,
            problems: Vec::new(),
            limit: None,
        }
    }

    fn usage(message: String) -> Self {
        Self::new(
            "INVALID_ARGUMENT",
            "Invalid argument",
            format!("Invalid argument: {message}"),
        )
    }

    fn into_js(self) -> JsValue {
        to_js(&self).unwrap_or_else(|e| e)
    }
}

/// Through JSON text: serde_json's `arbitrary_precision` numbers (which keep a number's exact
/// text) serialize as a private map with any other serializer.
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value).map_err(|e| JsValue::from_str(&e.to_string()))?;
    js_sys::JSON::parse(&text)
}

fn from_js<T: for<'de> Deserialize<'de> + Default>(
    value: JsValue,
    what: &str,
) -> Result<T, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(T::default());
    }
    serde_wasm_bindgen::from_value(value)
        .map_err(|e| RawError::usage(format!("{what}: {e}")).into_js())
}

/// Reads a document as every entry point does (`jobgraph_core::parse_json`: byte-order mark,
/// duplicate keys, depth), then as `T`.
fn parse_json<T: for<'de> Deserialize<'de>>(text: &str, what: &str) -> Result<T, JsValue> {
    let value = jobgraph_core::parse_json(text)
        .map_err(|e| RawError::usage(format!("{what}: {e}")).into_js())?;
    serde_json::from_value(value).map_err(|e| RawError::usage(format!("{what}: {e}")).into_js())
}

/// Templates from a list, or fetched through a JavaScript callback
/// `(id, version) => Promise<Template | null>`.
enum Source {
    List(TemplateSet),
    Callback(Function),
}

impl TemplateSource for Source {
    fn fetch(
        &self,
        id: &str,
        version: Option<u64>,
    ) -> impl Future<Output = Result<Template, FetchError>> {
        let call = match self {
            Source::List(set) => Err(set.get(id, version).cloned().ok_or(FetchError::NotFound)),
            Source::Callback(callback) => {
                let version = version.map_or(JsValue::UNDEFINED, |v| JsValue::from_f64(v as f64));
                Ok(callback.call2(&JsValue::NULL, &JsValue::from_str(id), &version))
            }
        };
        async move {
            let returned = match call {
                Err(answer) => return answer,
                Ok(returned) => returned.map_err(|e| FetchError::Failed(describe(&e)))?,
            };
            let value = JsFuture::from(Promise::resolve(&returned))
                .await
                .map_err(|e| FetchError::Failed(describe(&e)))?;
            if value.is_null() || value.is_undefined() {
                return Err(FetchError::NotFound);
            }
            let text =
                js_sys::JSON::stringify(&value).map_err(|e| FetchError::Failed(describe(&e)))?;
            let text = String::from(text);
            serde_json::from_str(&text).map_err(|e| {
                FetchError::Failed(format!("the callback returned an invalid template: {e}"))
            })
        }
    }
}

fn describe(value: &JsValue) -> String {
    if let Some(error) = value.dyn_ref::<js_sys::Error>() {
        return String::from(error.message());
    }
    value.as_string().unwrap_or_else(|| format!("{value:?}"))
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

fn source_of(
    templates: Option<String>,
    fetch_template: Option<Function>,
) -> Result<Source, JsValue> {
    Ok(match (templates, fetch_template) {
        (_, Some(callback)) => Source::Callback(callback),
        (Some(list), None) => {
            let list: Vec<Template> = parse_json(&list, "templates")?;
            Source::List(list.into_iter().collect())
        }
        (None, None) => Source::List(TemplateSet::new()),
    })
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

/// Parses an edge into `{from: {vertex, port?}, to: {vertex, port?}}`.
#[wasm_bindgen(js_name = parseEdge)]
pub fn parse_edge_js(text: &str) -> Result<JsValue, JsValue> {
    let edge = parse_edge(text)
        .map_err(|e| RawError::new("MALFORMED_EDGE", "malformed edge", e.to_string()).into_js())?;
    to_js(&EdgeJs::from(&edge))
}

/// The canonical text of an edge: `from[:port] -> to[:port]`.
#[wasm_bindgen(js_name = formatEdge)]
pub fn format_edge_js(edge: JsValue) -> Result<String, JsValue> {
    let edge: EdgeJs = serde_wasm_bindgen::from_value(edge)
        .map_err(|e| RawError::usage(format!("edge: {e}")).into_js())?;
    let text = format!("{} -> {}", edge.from.text(), edge.to.text());
    // Round-trip through the parser so that only well-formed edges are written.
    parse_edge(&text)
        .map(|e| e.to_string())
        .map_err(|e| RawError::usage(e.to_string()).into_js())
}

/// An edge as JavaScript sees it.
#[derive(Serialize, Deserialize)]
struct EdgeJs {
    from: EndpointJs,
    to: EndpointJs,
}

#[derive(Serialize, Deserialize)]
struct EndpointJs {
    vertex: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    port: Option<String>,
}

impl EndpointJs {
    fn text(&self) -> String {
        match &self.port {
            Some(port) => format!("{}:{port}", self.vertex),
            None => self.vertex.clone(),
        }
    }
}

impl From<&jobgraph_core::Edge> for EdgeJs {
    fn from(edge: &jobgraph_core::Edge) -> Self {
        let end = |e: &jobgraph_core::Endpoint| EndpointJs {
            vertex: e.vertex.clone(),
            port: e.port.clone(),
        };
        EdgeJs {
            from: end(&edge.from),
            to: end(&edge.to),
        }
    }
}

/// Results go out as JSON text parsed by the engine: exact, and faster than building objects
/// field by field across the boundary.
fn json_out(value: &Value) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value).map_err(|e| JsValue::from_str(&e.to_string()))?;
    js_sys::JSON::parse(&text)
}
