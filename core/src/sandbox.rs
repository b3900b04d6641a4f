//! The script sandbox: runs one template script in a fresh `boa_engine` context.
//!
//! Every execution gets a new [`boa_engine::Context`] (and so a new realm): nothing a script does
//! to built-ins or globals survives it. The context has no module loader, no console, no timers,
//! no file, network, process or environment access and no `WebAssembly`: only the ECMAScript
//! built-ins. Inputs and `user` are created inside the context, so constructor chains lead only
//! to the sandbox's own intrinsics.
//!
//! Limits (see [`Limits`]): wall-clock time (checked between budgeted slices of VM execution),
//! loop iterations (counted per call frame by boa; not catchable by the script), recursion depth
//! and output size (vertices and bytes). Soft limits are listed in `docs/sandbox.md`.

use std::fmt;
use std::future::Future;
use std::pin::pin;
use std::rc::Rc;
use std::task::{Poll, Waker};

use boa_engine::module::IdleModuleLoader;
use boa_engine::object::ObjectInitializer;
use boa_engine::property::Attribute;
use boa_engine::{
    Context, JsError, JsResult, JsString, JsValue, NativeFunction, Script, Source, js_string,
};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use web_time::{Duration, Instant};

/// VM "clock cycles" run between two deadline checks.
const BUDGET_PER_SLICE: u32 = 20_000;

/// Resource limits of one script execution. Every field has a safe default; JSON names are
/// camelCase (`timeoutMs`, `maxMemoryBytes`, …) and missing fields take the default.
///
/// ```
/// let limits = jobgraph_core::Limits { timeout_ms: 250, ..Default::default() };
/// assert_eq!(limits.max_output_vertices, 10_000);
/// let from_json: jobgraph_core::Limits = serde_json::from_str(r#"{"maxMemoryBytes": 1048576}"#).unwrap();
/// assert_eq!((from_json.max_memory_bytes, from_json.timeout_ms), (1 << 20, 1000));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Limits {
    /// Wall-clock time for one script, in milliseconds. Default 1000.
    pub timeout_ms: u64,
    /// Loop iterations allowed in one call frame (boa counts per frame). Default 10 000 000.
    pub loop_iterations: u64,
    /// Depth of nested calls. Default 256.
    pub recursion_depth: usize,
    /// Vertices a script may return. Default 10 000.
    pub max_output_vertices: usize,
    /// Bytes of the script's result as compact JSON. Default 8 MiB.
    pub max_output_bytes: usize,
    /// Nesting of brackets in the script's source, estimated before parsing (the parser has no
    /// depth limit of its own; in browsers the engine's own stack bounds wasm recursion).
    /// Default 64.
    pub max_nesting: usize,
    /// Bytes a script may have allocated at once (its realm included), checked between budgeted
    /// slices of execution. Needs a [`crate::memory::CountingAllocator`] in the program; the
    /// isolated mode also caps the worker's address space. Default 256 MiB.
    pub max_memory_bytes: u64,
    /// Template operations one resolution may expand, all levels together (not per script: a
    /// template returning k operations of itself would otherwise run k + k² + … + k¹⁰ scripts
    /// before the depth limit stops it). Default 1000.
    pub max_operations: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout_ms: 1_000,
            loop_iterations: 10_000_000,
            recursion_depth: 256,
            max_output_vertices: 10_000,
            max_output_bytes: 8 * 1024 * 1024,
            max_nesting: 64,
            max_memory_bytes: 256 * 1024 * 1024,
            max_operations: 1_000,
        }
    }
}

impl Limits {
    /// The configured value of one limit, as a [`LimitHit`] (what an error reports).
    ///
    /// ```
    /// use jobgraph_core::{LimitKind, Limits};
    /// let hit = Limits::default().hit(LimitKind::Time);
    /// assert_eq!(hit.to_string(), "time limit of 1000 ms exceeded");
    /// ```
    pub fn hit(&self, kind: LimitKind) -> LimitHit {
        let value = match kind {
            LimitKind::Time => self.timeout_ms,
            LimitKind::Loop => self.loop_iterations,
            LimitKind::Recursion => self.recursion_depth as u64,
            LimitKind::OutputVertices => self.max_output_vertices as u64,
            LimitKind::OutputBytes => self.max_output_bytes as u64,
            LimitKind::Nesting => self.max_nesting as u64,
            LimitKind::Memory => self.max_memory_bytes,
        };
        LimitHit { kind, value }
    }
}

/// Which limit stopped a script.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum LimitKind {
    /// Wall-clock time.
    Time,
    /// Loop iterations in one call frame.
    Loop,
    /// Call depth (or the VM stack that deep calls use).
    Recursion,
    /// Number of vertices in the result.
    OutputVertices,
    /// Size of the result.
    OutputBytes,
    /// Bracket nesting of the source.
    Nesting,
    /// Memory allocated by the script.
    Memory,
}

/// A limit that was hit, with its configured value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LimitHit {
    /// Which limit.
    pub kind: LimitKind,
    /// Its configured value (ms, iterations, calls, vertices or bytes).
    pub value: u64,
}

impl fmt::Display for LimitHit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.value;
        match self.kind {
            LimitKind::Time => write!(f, "time limit of {v} ms exceeded"),
            LimitKind::Loop => write!(f, "loop limit of {v} iterations exceeded"),
            LimitKind::Recursion => write!(f, "recursion limit of {v} nested calls exceeded"),
            LimitKind::OutputVertices => write!(f, "output size limit of {v} vertices exceeded"),
            LimitKind::OutputBytes => write!(f, "output size limit of {v} bytes exceeded"),
            LimitKind::Nesting => write!(f, "nesting limit of {v} levels of brackets exceeded"),
            LimitKind::Memory => write!(f, "memory limit of {v} bytes exceeded"),
        }
    }
}

/// What one script execution needs.
#[derive(Debug, Clone, Copy)]
pub struct ScriptInput<'a> {
    /// The JavaScript source.
    pub source: &'a str,
    /// Names bound to `undefined` unless `variables` gives them a value (the `inputSchema`'s
    /// properties), so that a script never meets a `ReferenceError` for a declared parameter.
    pub declared: &'a [String],
    /// Global variables with values, bound in this order.
    pub variables: &'a Map<String, Value>,
    /// Value of the `draft` global.
    pub draft: bool,
    /// What `user.getName()` returns.
    pub user: &'a str,
}

/// Why a script produced no graph.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ScriptError {
    /// The final expression was `null` or `undefined` (or JSON text `null`).
    ReturnedNothing,
    /// Syntax error, exception or limit.
    Failed(ScriptFailure),
    /// The result is not JSON-shaped (for example a string that is not JSON, or a BigInt).
    NotJson(String),
}

/// A failed execution: the message, where, and the limit when one stopped it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScriptFailure {
    /// The error as JavaScript reports it, for example `TypeError: x is not a function`.
    pub message: String,
    /// 1-based line of the script, when known.
    pub line: Option<u32>,
    /// 1-based column of the script, when known.
    pub column: Option<u32>,
    /// The limit that stopped the script, if any.
    pub limit: Option<LimitHit>,
}

impl fmt::Display for ScriptFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.limit {
            Some(limit) => write!(f, "{limit}")?,
            None => f.write_str(&self.message)?,
        }
        if let (Some(line), Some(column)) = (self.line, self.column) {
            write!(f, " at line {line}, column {column}")?;
        }
        Ok(())
    }
}

impl ScriptFailure {
    /// The failure of a script stopped by a limit.
    pub fn limit(hit: LimitHit) -> Self {
        ScriptFailure {
            message: hit.to_string(),
            line: None,
            column: None,
            limit: Some(hit),
        }
    }
}

/// Runs a template script and returns the JSON value of its final expression.
///
/// A string result is parsed as JSON. `null`/`undefined` is [`ScriptError::ReturnedNothing`].
///
/// ```
/// use jobgraph_core::{Limits, ScriptInput, run_script};
/// use serde_json::{Map, json};
/// let mut vars = Map::new();
/// vars.insert("n".into(), json!(2));
/// let out = run_script(
///     &ScriptInput { source: "({n: n * 2, who: user.getName(), draft, m: typeof m})",
///                    declared: &["m".to_string()], variables: &vars, draft: true, user: "ada" },
///     &Limits::default(),
/// ).unwrap();
/// assert_eq!(out, json!({"n": 4, "who": "ada", "draft": true, "m": "undefined"}));
/// ```
pub fn run_script(input: &ScriptInput<'_>, limits: &Limits) -> Result<Value, ScriptError> {
    if let Err(at) = crate::nesting::check(input.source, limits.max_nesting) {
        let mut failure = ScriptFailure::limit(limits.hit(LimitKind::Nesting));
        (failure.line, failure.column) = (Some(at.line), Some(at.column));
        return Err(ScriptError::Failed(failure));
    }
    on_script_stack(|| run_in_fresh_context(input, limits))
}

/// An execution mode: where and how template scripts run. The resolver and the test operation
/// hand every script to a `Sandbox`; embedders choose one.
///
/// - [`InProcess`] (the default; the CLI and the browser use it) runs the script on the calling
///   thread in a fresh realm with every [`Limits`] check that can be made from inside.
/// - `jobgraph_sdk::ProcessSandbox` runs it in a pool of child processes with an address-space
///   limit and a wall-clock kill, which also stops what the in-process checks cannot
///   (catastrophic regex backtracking, huge single allocations); `docs/sandbox.md` compares them.
///
/// ```
/// use jobgraph_core::{InProcess, Limits, Sandbox, ScriptInput};
/// let vars = serde_json::Map::new();
/// let input = ScriptInput { source: "({vertices: [], edges: []})", declared: &[],
///                           variables: &vars, draft: false, user: "ada" };
/// let limits = Limits::default();
/// let run = InProcess.run(&input, &limits);
/// let out = jobgraph_core::resolve::ready_now(async { Ok(run.await) }).unwrap();
/// assert_eq!(out.unwrap(), serde_json::json!({"vertices": [], "edges": []}));
/// ```
pub trait Sandbox {
    /// Runs one script under `limits` and returns its result as [`run_script`] does.
    fn run(
        &self,
        input: &ScriptInput<'_>,
        limits: &Limits,
    ) -> impl Future<Output = Result<Value, ScriptError>>;
}

/// The in-process execution mode: [`run_script`] on the calling thread.
#[derive(Debug, Clone, Copy, Default)]
pub struct InProcess;

impl Sandbox for InProcess {
    fn run(
        &self,
        input: &ScriptInput<'_>,
        limits: &Limits,
    ) -> impl Future<Output = Result<Value, ScriptError>> {
        std::future::ready(run_script(input, limits))
    }
}

impl<T: Sandbox + ?Sized> Sandbox for &T {
    fn run(
        &self,
        input: &ScriptInput<'_>,
        limits: &Limits,
    ) -> impl Future<Output = Result<Value, ScriptError>> {
        (**self).run(input, limits)
    }
}

/// An owned [`ScriptInput`] with its limits: what crosses a process boundary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScriptRequest {
    /// The JavaScript source.
    pub source: String,
    /// See [`ScriptInput::declared`].
    #[serde(default)]
    pub declared: Vec<String>,
    /// See [`ScriptInput::variables`].
    #[serde(default)]
    pub variables: Map<String, Value>,
    /// See [`ScriptInput::draft`].
    #[serde(default)]
    pub draft: bool,
    /// See [`ScriptInput::user`].
    #[serde(default)]
    pub user: String,
    /// Limits of this execution.
    #[serde(default)]
    pub limits: Limits,
}

impl ScriptRequest {
    /// Copies `input` and `limits`.
    pub fn new(input: &ScriptInput<'_>, limits: &Limits) -> Self {
        ScriptRequest {
            source: input.source.to_owned(),
            declared: input.declared.to_vec(),
            variables: input.variables.clone(),
            draft: input.draft,
            user: input.user.to_owned(),
            limits: *limits,
        }
    }

    /// Borrows it back as a [`ScriptInput`].
    pub fn input(&self) -> ScriptInput<'_> {
        ScriptInput {
            source: &self.source,
            declared: &self.declared,
            variables: &self.variables,
            draft: self.draft,
            user: &self.user,
        }
    }
}

/// Stack on which scripts are parsed, compiled and run: boa recurses natively, and anything the
/// nesting and recursion limits let through fits in it (~100 KiB per nesting level in debug
/// builds). Reserved, not committed: only what is used costs memory.
#[cfg(not(target_family = "wasm"))]
const SCRIPT_STACK_BYTES: usize = 64 * 1024 * 1024;

/// Runs `f` on a stack of [`SCRIPT_STACK_BYTES`], on the calling thread (`stacker` switches to
/// a fresh, guarded segment). A helper thread per call or a reused helper thread were measured
/// at +150 µs and +320 µs per execution.
#[cfg(not(target_family = "wasm"))]
fn on_script_stack<T>(f: impl FnOnce() -> T) -> T {
    stacker::maybe_grow(SCRIPT_STACK_BYTES / 2, SCRIPT_STACK_BYTES, f)
}

/// In wasm, `f` runs on the module's own shadow stack (16 MiB, placed first in linear memory,
/// so exhausting it traps). `stacker` would work there too, but its segment would be a heap
/// block without a guard page: an overflow would silently overwrite the heap below it (found
/// by the wasmtime evaluation).
#[cfg(target_family = "wasm")]
fn on_script_stack<T>(f: impl FnOnce() -> T) -> T {
    f()
}

fn run_in_fresh_context(input: &ScriptInput<'_>, limits: &Limits) -> Result<Value, ScriptError> {
    let meter = MemoryMeter::start(limits);
    let mut context = new_context(limits).map_err(|e| {
        ScriptError::Failed(ScriptFailure {
            message: format!("the sandbox could not be created: {e}"),
            line: None,
            column: None,
            limit: None,
        })
    })?;
    let result = execute(&mut context, input, limits, &meter);
    // Dropping the context and collecting frees the realm and everything the script made (boa's
    // collector would otherwise keep it until its next threshold, and the next script would
    // start with its predecessor's garbage).
    drop(context);
    boa_engine::gc::force_collect();
    result
}

/// A context with nothing but the ECMAScript built-ins. boa's default module loader reads files
/// relative to the working directory; the idle loader rejects every `import()`. Code compiled
/// at run time (`eval`, `Function`) passes the same nesting check as the script.
fn new_context(limits: &Limits) -> JsResult<Context> {
    let mut context = Context::builder()
        .module_loader(Rc::new(IdleModuleLoader))
        .host_hooks(Rc::new(SandboxHooks {
            max_nesting: limits.max_nesting,
        }))
        .build()?;
    // boa exposes the abstract %TypedArray% constructor as a global; ECMAScript does not.
    let global = context.global_object();
    global.delete_property_or_throw(js_string!("TypedArray"), &mut context)?;
    Ok(context)
}

/// Prefix of the error thrown when run-time compiled code nests too deeply.
const RUNTIME_NESTING: &str = "nesting limit of ";

/// Host hooks of the sandbox: everything as boa's defaults, except that strings compiled at run
/// time are checked for nesting before the parser sees them.
struct SandboxHooks {
    max_nesting: usize,
}

impl boa_engine::context::HostHooks for SandboxHooks {
    fn ensure_can_compile_strings(
        &self,
        _realm: boa_engine::realm::Realm,
        parameters: &[JsString],
        body: &JsString,
        _direct: bool,
        _context: &mut Context,
    ) -> JsResult<()> {
        for text in parameters.iter().chain(std::iter::once(body)) {
            let text = text.to_std_string_escaped();
            if let Err(at) = crate::nesting::check(&text, self.max_nesting) {
                return Err(boa_engine::JsNativeError::range()
                    .with_message(format!(
                        "{RUNTIME_NESTING}{} levels of brackets exceeded in code compiled at run time (line {}, column {} of that code)",
                        self.max_nesting, at.line, at.column
                    ))
                    .into());
            }
        }
        Ok(())
    }
}

fn execute(
    context: &mut Context,
    input: &ScriptInput<'_>,
    limits: &Limits,
    meter: &MemoryMeter,
) -> Result<Value, ScriptError> {
    let runtime = context.runtime_limits_mut();
    runtime.set_loop_iteration_limit(limits.loop_iterations);
    runtime.set_recursion_limit(limits.recursion_depth);

    bind_globals(context, input).map_err(|e| ScriptError::Failed(failure(&e, context, limits)))?;

    let script = Script::parse(Source::from_bytes(input.source), None, context).map_err(|e| {
        let mut failure = failure(&e, context, limits);
        if failure.line.is_none() {
            // "abrupt end": the parser ran out of input.
            let (line, column) = end_position(input.source);
            (failure.line, failure.column) = (Some(line), Some(column));
        }
        ScriptError::Failed(failure)
    })?;
    meter.check()?;
    let value = run_with_deadline(&script, context, limits, meter)?;
    meter.check()?;
    convert_result(&value, context, limits)
}

fn bind_globals(context: &mut Context, input: &ScriptInput<'_>) -> JsResult<()> {
    let absent = input
        .declared
        .iter()
        .filter(|name| !input.variables.contains_key(name.as_str()))
        .map(|name| (name, None));
    let given = input
        .variables
        .iter()
        .map(|(name, value)| (name, Some(value)));
    for (name, value) in absent.chain(given) {
        let value = match value {
            Some(value) => JsValue::from_json(value, context)?,
            None => JsValue::undefined(),
        };
        context
            .register_global_property(JsString::from(name.as_str()), value, Attribute::all())
            .map_err(|_| {
                JsError::from_opaque(JsValue::from(JsString::from(format!(
                    "input {name:?} cannot be bound: it names a read-only JavaScript global"
                ))))
            })?;
    }
    context.register_global_property(js_string!("draft"), input.draft, Attribute::all())?;
    let name = JsString::from(input.user);
    let get_name = NativeFunction::from_copy_closure_with_captures(
        |_this, _args, name: &JsString, _ctx| Ok(JsValue::from(name.clone())),
        name,
    );
    let user = ObjectInitializer::new(context)
        .function(get_name, js_string!("getName"), 0)
        .build();
    context.register_global_property(js_string!("user"), user, Attribute::all())?;
    Ok(())
}

fn run_with_deadline(
    script: &Script,
    context: &mut Context,
    limits: &Limits,
    meter: &MemoryMeter,
) -> Result<JsValue, ScriptError> {
    let deadline = Instant::now() + Duration::from_millis(limits.timeout_ms);
    let outcome = {
        let mut run = pin!(script.evaluate_async_with_budget(context, BUDGET_PER_SLICE));
        let mut poll_context = std::task::Context::from_waker(Waker::noop());
        loop {
            match run.as_mut().poll(&mut poll_context) {
                Poll::Ready(outcome) => break outcome,
                Poll::Pending if Instant::now() >= deadline => {
                    return Err(ScriptError::Failed(ScriptFailure::limit(
                        limits.hit(LimitKind::Time),
                    )));
                }
                Poll::Pending => meter.check()?,
            }
        }
    };
    outcome.map_err(|e| ScriptError::Failed(failure(&e, context, limits)))
}

/// The allocation cap of one execution: bytes live on this thread, counted from its start.
struct MemoryMeter {
    baseline: isize,
    cap: LimitHit,
}

impl MemoryMeter {
    fn start(limits: &Limits) -> Self {
        crate::memory::reset_peak();
        MemoryMeter {
            baseline: crate::memory::live_bytes(),
            cap: limits.hit(LimitKind::Memory),
        }
    }

    fn check(&self) -> Result<(), ScriptError> {
        let used = crate::memory::live_bytes().saturating_sub(self.baseline);
        if u64::try_from(used).unwrap_or(0) > self.cap.value {
            Err(ScriptError::Failed(ScriptFailure::limit(self.cap)))
        } else {
            Ok(())
        }
    }
}

/// Turns a boa error into a failure with message, position and limit. Runs no script code: a
/// thrown object's `message`, `name` or `cause` getters, proxies and `AggregateError` lists
/// are never read through JavaScript (boa's `try_native` would run them, unbounded).
fn failure(error: &JsError, context: &mut Context, limits: &Limits) -> ScriptFailure {
    // The rendering of a thrown non-error object could be as large and deep as the object.
    let text = match error.as_opaque().and_then(JsValue::as_object) {
        Some(object) if !object.is::<boa_engine::builtins::error::Error>() => String::new(),
        _ => error.to_string(),
    };
    if let Some(rest) = text.strip_prefix("RuntimeLimitError: ") {
        let kind = if rest.contains("iteration loops") {
            LimitKind::Loop
        } else {
            LimitKind::Recursion
        };
        return ScriptFailure::limit(limits.hit(kind));
    }
    let (mut line, mut column) = first_position(&text);
    if line.is_none() {
        (line, column) = syntax_position(&text);
    }
    let message = match (error.as_native(), error.as_opaque()) {
        (Some(native), _) => {
            let message = native.message().trim();
            if message.is_empty() {
                native.kind().to_string()
            } else {
                format!("{}: {message}", native.kind())
            }
        }
        (None, Some(value)) => thrown_message(value, context),
        (None, None) => first_line(&text).to_owned(),
    };
    let message = strip_position_suffix(&message);
    let message = match message.rfind(" at line ") {
        Some(i) if syntax_position(&message[i..]).0.is_some() => &message[..i],
        _ => message,
    }
    .to_owned();
    // Stack exhaustion inside built-ins surfaces as a RangeError; deep run-time compiled code
    // as ours.
    let limit = if message.contains("Maximum call stack size exceeded") {
        Some(limits.hit(LimitKind::Recursion))
    } else if message.starts_with(&format!("RangeError: {RUNTIME_NESTING}")) {
        Some(limits.hit(LimitKind::Nesting))
    } else {
        None
    };
    ScriptFailure {
        message,
        line,
        column,
        limit,
    }
}

/// The message of a thrown value: `Name: message` for error objects (read from data properties
/// only), the JSON of other values (bounded, no getters), `Uncaught "text"` for strings.
fn thrown_message(value: &JsValue, context: &mut Context) -> String {
    if let Some(s) = value.as_string() {
        return format!("Uncaught {:?}", s.to_std_string_escaped());
    }
    let Some(object) = value.as_object() else {
        return format!("Uncaught {}", value.display());
    };
    if object.is::<boa_engine::builtins::error::Error>() {
        let text = |key: &str| {
            data_property_in_chain(&object, key)
                .and_then(|v| v.as_string().map(|s| s.to_std_string_escaped()))
        };
        let name = text("name").unwrap_or_else(|| "Error".to_owned());
        let message = text("message").unwrap_or_default();
        let message: String = message.chars().take(1000).collect();
        return if message.trim().is_empty() {
            name
        } else {
            format!("{name}: {}", message.trim())
        };
    }
    match crate::js_json::read(value, context, 1000) {
        Ok(Some(json)) => format!("Uncaught {json}"),
        _ => "Uncaught object".to_owned(),
    }
}

/// A data property of `object` or its prototypes (a few levels), read from storage: an accessor
/// or a proxy ends the search (their code is never run).
fn data_property_in_chain(object: &boa_engine::JsObject, key: &str) -> Option<JsValue> {
    let key = boa_engine::property::PropertyKey::from(JsString::from(key));
    let mut current = object.clone();
    for _ in 0..16 {
        if current.is::<boa_engine::builtins::proxy::Proxy>() {
            return None;
        }
        let next = {
            let borrowed = current.borrow();
            if let Some(descriptor) = borrowed.properties().get(&key) {
                return descriptor.value().cloned();
            }
            borrowed.prototype()
        };
        current = next?;
    }
    None
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}

/// Removes a trailing ` (… at :L:C)` that boa appends to native messages.
fn strip_position_suffix(message: &str) -> &str {
    match message.rfind(" (") {
        Some(i) if message.ends_with(')') && first_position(&message[i..]).0.is_some() => {
            &message[..i]
        }
        _ => message,
    }
}

/// The first `:line:column` position in boa's rendering of an error, if any.
fn first_position(text: &str) -> (Option<u32>, Option<u32>) {
    for (i, _) in text.match_indices(" at :") {
        let rest = &text[i + 5..];
        let mut numbers = rest.split([':', ')']);
        if let (Some(Ok(line)), Some(Ok(column))) = (
            numbers.next().map(str::parse::<u32>),
            numbers.next().map(str::parse::<u32>),
        ) {
            return (Some(line), Some(column));
        }
    }
    (None, None)
}

/// The `at line L, col C` position of boa's syntax error messages.
fn syntax_position(text: &str) -> (Option<u32>, Option<u32>) {
    let Some(i) = text.rfind(" at line ") else {
        return (None, None);
    };
    let mut parts = text[i + 9..].split(", col ");
    let line = parts.next().and_then(|l| l.trim().parse().ok());
    let column = parts
        .next()
        .map(|c| {
            c.chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
        })
        .and_then(|c| c.parse().ok());
    if line.is_some() && column.is_some() {
        (line, column)
    } else {
        (None, None)
    }
}

/// Line and column just past the end of `source`.
fn end_position(source: &str) -> (u32, u32) {
    let line = source.split('\n').count();
    let column = source.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(column).unwrap_or(u32::MAX),
    )
}

fn convert_result(
    value: &JsValue,
    context: &mut Context,
    limits: &Limits,
) -> Result<Value, ScriptError> {
    if value.is_null_or_undefined() {
        return Err(ScriptError::ReturnedNothing);
    }
    let json = if let Some(text) = value.as_string() {
        let text = text.to_std_string_escaped();
        check_bytes(text.len(), limits)?;
        serde_json::from_str::<Value>(&text).map_err(|e| {
            ScriptError::NotJson(format!(
                "the script returned a string that is not JSON ({e})"
            ))
        })?
    } else {
        let json =
            crate::js_json::read(value, context, limits.max_output_bytes).map_err(|e| match e {
                crate::js_json::ReadError::NotJson(reason) => ScriptError::NotJson(reason),
                crate::js_json::ReadError::TooLarge => {
                    ScriptError::Failed(ScriptFailure::limit(limits.hit(LimitKind::OutputBytes)))
                }
            })?;
        let json = json.ok_or(ScriptError::ReturnedNothing)?;
        check_bytes(compact_len(&json), limits)?;
        json
    };
    if json.is_null() {
        return Err(ScriptError::ReturnedNothing);
    }
    if let Some(vertices) = json.get("vertices").and_then(Value::as_array)
        && vertices.len() > limits.max_output_vertices
    {
        return Err(ScriptError::Failed(ScriptFailure::limit(
            limits.hit(LimitKind::OutputVertices),
        )));
    }
    Ok(json)
}

fn check_bytes(len: usize, limits: &Limits) -> Result<(), ScriptError> {
    if len > limits.max_output_bytes {
        Err(ScriptError::Failed(ScriptFailure::limit(
            limits.hit(LimitKind::OutputBytes),
        )))
    } else {
        Ok(())
    }
}

/// Length of the compact JSON text of `value`, without building it.
fn compact_len(value: &Value) -> usize {
    struct Counter(usize);
    impl std::io::Write for Counter {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut counter = Counter(0);
    match serde_json::to_writer(&mut counter, value) {
        Ok(()) => counter.0,
        Err(_) => usize::MAX,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Default limits but a generous deadline: a loaded CI machine runs debug builds slowly.
    fn run(source: &str) -> Result<Value, ScriptError> {
        run_limited(
            source,
            Limits {
                timeout_ms: 30_000,
                ..Limits::default()
            },
        )
    }

    fn run_limited(source: &str, limits: Limits) -> Result<Value, ScriptError> {
        let vars = Map::new();
        run_script(
            &ScriptInput {
                source,
                declared: &[],
                variables: &vars,
                draft: false,
                user: "tester",
            },
            &limits,
        )
    }

    fn failed(source: &str, limits: Limits) -> ScriptFailure {
        match run_limited(source, limits) {
            Err(ScriptError::Failed(f)) => f,
            other => panic!("expected a failure, got {other:?}"),
        }
    }

    #[test]
    fn completion_value_and_json_text() {
        assert_eq!(run("let a = 1; ({a})").unwrap(), json!({"a": 1}));
        assert_eq!(
            run("JSON.stringify({b: [1, 2.5]})").unwrap(),
            json!({"b": [1, 2.5]})
        );
        assert_eq!(
            run("({x: 3 / 1.5, y: -0})").unwrap(),
            json!({"x": 2, "y": 0})
        );
        assert_eq!(run("null"), Err(ScriptError::ReturnedNothing));
        assert_eq!(run("let x = 1;"), Err(ScriptError::ReturnedNothing));
        assert_eq!(run("'null'"), Err(ScriptError::ReturnedNothing));
        assert!(
            matches!(run("'{not json'"), Err(ScriptError::NotJson(m)) if m.contains("not JSON"))
        );
        assert!(matches!(run("({a: 1n})"), Err(ScriptError::NotJson(m)) if m.contains("bigint")));
        assert!(
            matches!(run("let o = {}; o.o = o; o"), Err(ScriptError::NotJson(m)) if m.contains("cyclic"))
        );
    }

    #[test]
    fn errors_carry_message_and_position() {
        let f = failed("let a = 1;\nnotDefined.x", Limits::default());
        assert_eq!(f.message, "ReferenceError: notDefined is not defined");
        assert_eq!(f.line, Some(2));
        assert!(f.column.is_some());
        let f = failed(
            "let a = 1;\n  throw new Error('bad input');",
            Limits::default(),
        );
        assert_eq!(f.message, "Error: bad input");
        assert_eq!(f.line, Some(2));
        let f = failed("throw 'plain'", Limits::default());
        assert_eq!(f.message, "Uncaught \"plain\"");
        let f = failed("let x = {;", Limits::default());
        assert_eq!(f.message, "SyntaxError: abrupt end");
        assert_eq!((f.line, f.column), (Some(1), Some(11)));
        let f = failed("let a = 1;\nlet = = 2;", Limits::default());
        assert!(f.message.starts_with("SyntaxError: "), "{f:?}");
        assert!(!f.message.contains(" at line "), "{f:?}");
        assert_eq!(f.line, Some(2));
    }

    #[test]
    fn limits_stop_hostile_scripts() {
        let quick = Limits {
            timeout_ms: 200,
            ..Limits::default()
        };
        let f = failed(
            "while (true) {}",
            Limits {
                loop_iterations: u64::MAX,
                ..quick
            },
        );
        assert_eq!(f.limit.map(|l| l.kind), Some(LimitKind::Time));
        let f = failed("while (true) {}", quick);
        assert!(f.limit.is_some(), "{f:?}");
        let few_loops = Limits {
            loop_iterations: 100_000,
            ..quick
        };
        let f = failed(
            "try { for (;;) {} } catch (e) {} ({vertices: []})",
            few_loops,
        );
        assert_eq!(f.limit.map(|l| l.kind), Some(LimitKind::Loop));
        let f = failed("function f() { return f() + 1 } f()", quick);
        assert_eq!(f.limit.map(|l| l.kind), Some(LimitKind::Recursion));
        let f = failed("[1].map(() => { for (;;) {} })", few_loops);
        assert_eq!(f.limit.map(|l| l.kind), Some(LimitKind::Loop));
        let f = failed(
            "({vertices: Array.from({length: 11}, (_, i) => ({type: 'x', name: 'v' + i}))})",
            Limits {
                max_output_vertices: 10,
                ..quick
            },
        );
        assert_eq!(f.limit.map(|l| l.kind), Some(LimitKind::OutputVertices));
        let f = failed(
            "'x'.repeat(2000)",
            Limits {
                max_output_bytes: 1000,
                ..quick
            },
        );
        assert_eq!(f.limit.map(|l| l.kind), Some(LimitKind::OutputBytes));
        let f = failed(
            "({n: 'y'.repeat(2000)})",
            Limits {
                max_output_bytes: 1000,
                ..quick
            },
        );
        assert_eq!(f.limit.map(|l| l.kind), Some(LimitKind::OutputBytes));
    }

    #[test]
    fn memory_limit_stops_gradual_growth_and_frees_the_realm() {
        assert!(crate::memory::is_metered());
        let cap = Limits {
            max_memory_bytes: 32 * 1024 * 1024,
            timeout_ms: 60_000,
            ..Limits::default()
        };
        let before = crate::memory::live_bytes();
        for growth in [
            "let a = []; for (;;) a.push({i: a.length})",
            "let s = 'ab'; let keep = []; for (;;) { s = s + s.slice(0, 1000) + 'x'; keep.push(s) }",
            "let m = new Map(); for (let i = 0; ; i++) m.set(i, [i])",
        ] {
            let f = failed(growth, cap);
            assert_eq!(
                f.limit,
                Some(LimitHit {
                    kind: LimitKind::Memory,
                    value: 32 * 1024 * 1024
                }),
                "{growth}: {f:?}"
            );
            assert_eq!(f.message, "memory limit of 33554432 bytes exceeded");
            assert!(crate::memory::peak_bytes() - before > 32 * 1024 * 1024);
        }
        // Everything the scripts made was freed with their realms.
        let leaked = crate::memory::live_bytes() - before;
        assert!(leaked < 1024 * 1024, "{leaked} bytes still live");
        // Under the cap, a script runs as usual.
        assert_eq!(
            run_limited("let a = new Array(1000).fill(1); ({n: a.length})", cap).unwrap(),
            json!({"n": 1000})
        );
    }

    #[test]
    fn no_host_capabilities() {
        for probe in [
            "typeof require",
            "typeof process",
            "typeof console",
            "typeof fetch",
            "typeof WebAssembly",
            "typeof setTimeout",
            "typeof Deno",
            "typeof print",
            "typeof load",
            "typeof XMLHttpRequest",
        ] {
            assert_eq!(
                run(&format!("JSON.stringify({probe})")).unwrap(),
                json!("undefined"),
                "{probe}"
            );
        }
        // The constructor chain of what we hand in leads to the sandbox's own Function.
        let v = run("({same: user.getName.constructor === Function, name: user.getName.constructor('return typeof this.process')()})").unwrap();
        assert_eq!(v, json!({"same": true, "name": "undefined"}));
    }

    #[test]
    fn module_loading_is_impossible() {
        let context = new_context(&Limits::default()).unwrap();
        assert!(
            context
                .downcast_module_loader::<IdleModuleLoader>()
                .is_some()
        );
        // The import promise never settles into anything the script could use.
        let v = run("let p = import('./Cargo.toml'); ({t: typeof p})").unwrap();
        assert_eq!(v, json!({"t": "object"}));
    }

    #[test]
    fn realms_do_not_leak_between_runs() {
        run("Array.prototype.map = function () { return 'hijacked' }; globalThis.leak = 1; ({})")
            .unwrap();
        assert_eq!(
            run("({m: [1].map(x => x + 1), leak: typeof leak})").unwrap(),
            json!({"m": [2], "leak": "undefined"})
        );
    }

    #[test]
    fn hostile_results_end_in_errors() {
        let deep = "let a = []; for (let i = 0; i < 100000; i++) a = [a]; ({vertices: [], x: a})";
        let r = run(deep);
        assert!(
            matches!(&r, Err(ScriptError::NotJson(m)) if m.contains("deeper than 128")),
            "{r:?}"
        );
        let sparse = "let a = []; a.length = 4294967295; ({vertices: a})";
        let f = failed(sparse, Limits::default());
        assert_eq!(f.limit.map(|l| l.kind), Some(LimitKind::OutputBytes));
        let proxy = "({vertices: [], p: new Proxy({}, {ownKeys() { for (;;) {} }, get() { for (;;) {} }})})";
        assert_eq!(run(proxy).unwrap(), json!({"vertices": [], "p": {}}));
        let holes = "({a: [1, , undefined, () => 1, NaN, 1e400], f() {}, u: undefined, n: -0})";
        assert_eq!(
            run(holes).unwrap(),
            json!({"a": [1, null, null, null, null, null], "n": 0})
        );
        assert!(
            matches!(run("({[Symbol()]: 1})"), Err(ScriptError::NotJson(m)) if m.contains("Symbol"))
        );
    }

    #[test]
    fn deep_source_nesting_is_refused_before_parsing() {
        let deep = format!("{}1{}", "(".repeat(20_000), ")".repeat(20_000));
        let f = failed(&deep, Limits::default());
        assert_eq!(f.limit.map(|l| l.kind), Some(LimitKind::Nesting));
        assert_eq!((f.line, f.column), (Some(1), Some(65)));
        // Within the limit, the parser's recursion fits the script thread's stack, even in
        // debug builds.
        let fits = format!("{}1{}; ({{vertices: []}})", "[".repeat(63), "]".repeat(63));
        assert_eq!(run(&fits).unwrap(), json!({"vertices": []}));
    }

    #[test]
    fn getters_in_the_result_are_not_run() {
        let v = run("({vertices: [], get edges() { for (;;) {} }})").unwrap();
        assert_eq!(v, json!({"vertices": [], "edges": null}));
    }
}
