//! One execution: the pre-parse checks, the script's stack, the globals it gets, the
//! deadline loop with the memory meter, and reading the result.

use std::future::Future;
use std::pin::pin;
use std::rc::Rc;
use std::task::{Poll, Waker};

use boa_engine::object::ObjectInitializer;
use boa_engine::property::Attribute;
use boa_engine::{Context, JsError, JsString, JsValue, NativeFunction, Script, Source, js_string};
use web_time::{Duration, Instant};

use super::ScriptInput;
use super::boa_errors::{end_position, failure};
use super::engine::{EngineState, new_context};
use super::limits::{LimitKind, Limits};
use super::outcome::{ScriptError, ScriptFailure, ScriptOutput};
use super::output::convert_result;
use super::realm::{CompileError, PreparedRealm, WRAPPED_LINE_OFFSET, discard};
use super::stack::on_script_stack;

/// VM "clock cycles" run between two deadline checks.
const BUDGET_PER_SLICE: u32 = 20_000;

/// Runs a template script and returns the JSON value of its final expression.
///
/// A string result is parsed as JSON. `null`/`undefined` is [`ScriptError::ReturnedNothing`].
/// Scripts run in the calling thread's prepared realm (see `docs/sandbox.md`): each one sees
/// the pristine built-ins and none of the globals of the scripts before it.
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
/// assert_eq!(out.value, json!({"n": 4, "who": "ada", "draft": true, "m": "undefined"}));
/// assert!(!out.nondeterministic);
/// ```
pub fn run_script(input: &ScriptInput<'_>, limits: &Limits) -> Result<ScriptOutput, ScriptError> {
    on_script_stack(|| run_prepared(input, limits))
}

/// Bounds the parser's nesting on this thread for `limits` (the vendored boa_parser counts
/// constructs nested without brackets, `Limits::PARSER_STEPS_PER_LEVEL` to a level).
fn set_parser_limit(limits: &Limits) {
    let steps = limits
        .effective_nesting()
        .saturating_mul(Limits::PARSER_STEPS_PER_LEVEL);
    boa_engine::parser::parser::nesting::set_limit(Some(u32::try_from(steps).unwrap_or(u32::MAX)));
}

fn too_deep(at: &super::nesting::TooDeep, limits: &Limits) -> ScriptError {
    let mut failure = ScriptFailure::limit(limits.hit(LimitKind::Nesting));
    (failure.line, failure.column) = (Some(at.line), Some(at.column));
    ScriptError::Failed(failure)
}

/// Runs in the thread's prepared realm, or in a fresh context for scripts that cannot be
/// wrapped (`realm::wrap`).
fn run_prepared(input: &ScriptInput<'_>, limits: &Limits) -> Result<ScriptOutput, ScriptError> {
    let mut realm = PreparedRealm::take().map_err(|e| cannot_create(&e))?;
    realm.state.max_nesting.set(limits.effective_nesting());
    set_parser_limit(limits);
    let script = match realm.compiled(input.source, limits.effective_nesting()) {
        Ok(Some(script)) => script,
        Ok(None) => {
            realm.put_back();
            return run_fresh(input, limits);
        }
        Err(CompileError::Nesting(at)) => {
            realm.put_back();
            return Err(too_deep(&at, limits));
        }
        Err(CompileError::Syntax(error)) => {
            let failure = syntax_failure(&error, &mut realm.context, input, limits);
            realm.put_back();
            return Err(ScriptError::Failed(failure));
        }
    };
    let state = Rc::clone(&realm.state);
    let outcome = evaluate(
        &mut realm.context,
        &state,
        &script,
        input,
        limits,
        WRAPPED_LINE_OFFSET,
    );
    // A run stopped by a limit may have left the VM mid-execution: never reuse it.
    let stopped = matches!(&outcome, Err(ScriptError::Failed(f)) if f.limit.is_some());
    if !stopped && realm.restore() {
        realm.put_back();
    } else {
        discard(realm.context);
    }
    outcome
}

/// The script as written, in a context of its own that is dropped afterwards.
fn run_fresh(input: &ScriptInput<'_>, limits: &Limits) -> Result<ScriptOutput, ScriptError> {
    super::nesting::check(input.source, limits.effective_nesting())
        .map_err(|at| too_deep(&at, limits))?;
    set_parser_limit(limits);
    let (mut context, state) = new_context().map_err(|e| cannot_create(&e))?;
    state.max_nesting.set(limits.effective_nesting());
    let units = super::utf16(input.source);
    let outcome = match Script::parse(Source::from_utf16(&units), None, &mut context) {
        Ok(script) => evaluate(&mut context, &state, &script, input, limits, 0),
        Err(error) => Err(ScriptError::Failed(syntax_failure(
            &error,
            &mut context,
            input,
            limits,
        ))),
    };
    discard(context);
    outcome
}

fn cannot_create(error: &JsError) -> ScriptError {
    ScriptError::Failed(ScriptFailure::infrastructure(format!(
        "the sandbox could not be created: {error}"
    )))
}

/// A parse error, placed at the end of the source when the parser ran out of input.
fn syntax_failure(
    error: &JsError,
    context: &mut Context,
    input: &ScriptInput<'_>,
    limits: &Limits,
) -> ScriptFailure {
    let mut failure = failure(error, context, limits, 0);
    if failure.line.is_none() {
        // "abrupt end": the parser ran out of input.
        let (line, column) = end_position(input.source);
        (failure.line, failure.column) = (Some(line), Some(column));
    }
    failure
}

/// Binds the globals, runs `script` under the limits and reads its result.
fn evaluate(
    context: &mut Context,
    state: &EngineState,
    script: &Script,
    input: &ScriptInput<'_>,
    limits: &Limits,
    line_offset: u32,
) -> Result<ScriptOutput, ScriptError> {
    let meter = MemoryMeter::start(limits);
    let deadline = Instant::now() + Duration::from_millis(limits.timeout_ms);
    state.nondeterministic.set(false);
    let runtime = context.runtime_limits_mut();
    runtime.set_loop_iteration_limit(limits.loop_iterations);
    runtime.set_recursion_limit(limits.recursion_depth);
    runtime.set_native_stack_limit(super::stack::native_stack_limit());
    let value = {
        let running = super::guard::begin(deadline, meter.baseline, meter.cap.value);
        let value = run_guarded(
            script,
            context,
            input,
            limits,
            &meter,
            deadline,
            line_offset,
        );
        drop(running);
        // A limit found inside the engine stopped it: that is the outcome, whatever the
        // script did after it (the error it raised cannot be caught, but native code may
        // have turned it into something else on its way out).
        if let Some(kind) = super::guard::take_hit() {
            return Err(ScriptError::Failed(ScriptFailure::limit(limits.hit(kind))));
        }
        value?
    };
    meter.check()?;
    let value = convert_result(&value, context, limits)?;
    Ok(ScriptOutput {
        value,
        nondeterministic: state.nondeterministic.get(),
    })
}

/// Binds the globals and runs the script under the deadline.
fn run_guarded(
    script: &Script,
    context: &mut Context,
    input: &ScriptInput<'_>,
    limits: &Limits,
    meter: &MemoryMeter,
    deadline: Instant,
    line_offset: u32,
) -> Result<JsValue, ScriptError> {
    bind_globals(context, input)
        .map_err(|e| ScriptError::Failed(failure(&e, context, limits, line_offset)))?;
    meter.check()?;
    run_with_deadline(script, context, limits, meter, deadline, line_offset)
}

fn bind_globals(context: &mut Context, input: &ScriptInput<'_>) -> boa_engine::JsResult<()> {
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
    deadline: Instant,
    line_offset: u32,
) -> Result<JsValue, ScriptError> {
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
    outcome.map_err(|e| ScriptError::Failed(failure(&e, context, limits, line_offset)))
}

/// The allocation cap of one execution: bytes live on this thread, counted from its start.
struct MemoryMeter {
    baseline: isize,
    cap: super::limits::LimitHit,
}

impl MemoryMeter {
    fn start(limits: &Limits) -> Self {
        super::memory::reset_peak();
        MemoryMeter {
            baseline: super::memory::live_bytes(),
            cap: limits.hit(LimitKind::Memory),
        }
    }

    fn check(&self) -> Result<(), ScriptError> {
        let used = super::memory::live_bytes().saturating_sub(self.baseline);
        if u64::try_from(used).unwrap_or(0) > self.cap.value {
            Err(ScriptError::Failed(ScriptFailure::limit(self.cap)))
        } else {
            Ok(())
        }
    }
}
