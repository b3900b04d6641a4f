//! The host's call stack: the engine's frames live on V8's stack too, and exhausting it traps
//! the instance, so the sandbox asks [`host_stack_has_room`] before going deeper.

use js_sys::Function;
use wasm_bindgen::prelude::*;

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
