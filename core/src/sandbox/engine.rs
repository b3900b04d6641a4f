//! The boa context a script runs in: nothing but the ECMAScript built-ins, plus the host hooks
//! the sandbox needs.
//!
//! - No module loader (boa's default reads files relative to the working directory; the idle
//!   loader rejects every `import()`), no job executor (Promise jobs are dropped, never run),
//!   no `console`, timers or host objects; boa's non-standard `TypedArray` global is removed.
//! - Code compiled at run time (`eval`, `Function`) passes the same bracket-nesting check as
//!   the script ([`SandboxHooks`]).
//! - Long native loops and large allocations ask the sandbox first: the hooks the vendored boa
//!   adds (`interrupt`, `ensure_can_allocate`) check the running execution's deadline and memory
//!   cap (`guard`) and stop the engine with an error scripts cannot catch.
//! - Reads of the clock (`Date`) and of `Math.random` are recorded ([`EngineState`]), so that
//!   their results are never reused by the resolver's execution cache.

use std::cell::Cell;
use std::rc::Rc;

use boa_engine::context::time::{Clock, JsInstant, StdClock};
use boa_engine::error::RuntimeLimitError;
use boa_engine::job::IdleJobExecutor;
use boa_engine::module::IdleModuleLoader;
use boa_engine::object::FunctionObjectBuilder;
use boa_engine::property::PropertyDescriptor;
use boa_engine::{Context, JsNativeError, JsObject, JsResult, JsString, NativeFunction, js_string};

use super::boa_errors::RUNTIME_NESTING;

/// Per-context state the hooks read and write; reset before every execution.
#[derive(Debug)]
pub(super) struct EngineState {
    /// `Limits::max_nesting` of the running execution, for code compiled at run time.
    pub max_nesting: Cell<usize>,
    /// Set when the running script read the clock or `Math.random`.
    pub nondeterministic: Cell<bool>,
}

/// A context with nothing but the ECMAScript built-ins and the sandbox's hooks.
pub(super) fn new_context() -> JsResult<(Context, Rc<EngineState>)> {
    let state = Rc::new(EngineState {
        max_nesting: Cell::new(0),
        nondeterministic: Cell::new(false),
    });
    let mut context = Context::builder()
        .module_loader(Rc::new(IdleModuleLoader))
        .job_executor(Rc::new(IdleJobExecutor))
        .host_hooks(Rc::new(SandboxHooks {
            state: Rc::clone(&state),
        }))
        .clock(Rc::new(RecordingClock {
            inner: StdClock::new(),
            state: Rc::clone(&state),
        }))
        .build()?;
    context.insert_data(Rc::clone(&state));
    // boa exposes the abstract %TypedArray% constructor as a global; ECMAScript does not.
    let global = context.global_object();
    global.delete_property_or_throw(js_string!("TypedArray"), &mut context)?;
    record_math_random(&mut context)?;
    Ok((context, state))
}

/// Host hooks of the sandbox: everything as boa's defaults, except that strings compiled at run
/// time are checked for nesting before the parser sees them.
struct SandboxHooks {
    state: Rc<EngineState>,
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
        let max_nesting = self.state.max_nesting.get();
        for text in parameters.iter().chain(std::iter::once(body)) {
            let text = text.to_std_string_escaped();
            if let Err(at) = super::nesting::check(&text, max_nesting) {
                return Err(JsNativeError::range()
                    .with_message(format!(
                        "{RUNTIME_NESTING}{max_nesting} levels exceeded in code compiled at run time (line {}, column {} of that code)",
                        at.line, at.column
                    ))
                    .into());
            }
        }
        Ok(())
    }

    fn ensure_can_allocate(&self, bytes: u64, _context: &mut Context) -> JsResult<()> {
        super::guard::ensure_can_allocate(bytes).map_err(|_| RuntimeLimitError::Host.into())
    }

    fn interrupt(&self, _context: &mut Context) -> JsResult<()> {
        super::guard::check().map_err(|_| RuntimeLimitError::Host.into())
    }
}

/// The standard clock, recording every wall-clock read (`Date.now()`, `new Date()`).
struct RecordingClock {
    inner: StdClock,
    state: Rc<EngineState>,
}

impl Clock for RecordingClock {
    fn now(&self) -> JsInstant {
        self.inner.now()
    }

    fn system_time_millis(&self) -> i64 {
        self.state.nondeterministic.set(true);
        self.inner.system_time_millis()
    }
}

/// Replaces `Math.random` with a native function of the same name and length that records the
/// read and calls the original.
fn record_math_random(context: &mut Context) -> JsResult<()> {
    let math = context.intrinsics().objects().math();
    let original = math
        .get(js_string!("random"), context)?
        .as_object()
        .ok_or_else(|| JsNativeError::typ().with_message("Math.random is not a function"))?;
    let recording = NativeFunction::from_copy_closure_with_captures(
        |this, args, original: &JsObject, context| {
            if let Some(state) = context.get_data::<Rc<EngineState>>() {
                state.nondeterministic.set(true);
            }
            original.call(this, args, context)
        },
        original,
    );
    let function = FunctionObjectBuilder::new(context.realm(), recording)
        .name(js_string!("random"))
        .length(0)
        .build();
    math.define_property_or_throw(
        js_string!("random"),
        PropertyDescriptor::builder()
            .value(function)
            .writable(true)
            .enumerable(false)
            .configurable(true),
        context,
    )?;
    Ok(())
}
