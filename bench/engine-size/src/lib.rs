//! A size and behaviour probe: QuickJS (through `rquickjs`) runs a template-like script after
//! the input is validated against a JSON Schema by the project's vendored `jsonschema`, with
//! `pattern` matched by `regress` — what the npm package's module needs from an engine and a
//! validator, without the resolver around them. See README.md.

use rquickjs::{CatchResultExt, Context, Function, Object, Runtime};
use wasm_bindgen::prelude::*;

fn now_ms() -> f64 {
    #[cfg(target_family = "wasm")]
    {
        js_sys::Date::now()
    }
    #[cfg(not(target_family = "wasm"))]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    }
}

#[cfg(feature = "schema")]
mod patterns {
    /// `pattern` as ECMA-262 with the `u` flag, by regress.
    pub struct Ecma;
    struct Matcher(regress::Regex);

    impl jsonschema::PatternEngine for Ecma {
        fn compile(&self, pattern: &str) -> Option<Box<dyn jsonschema::PatternMatcher>> {
            let regex = regress::Regex::with_flags(pattern, "u").ok()?;
            Some(Box::new(Matcher(regex)))
        }
    }

    impl jsonschema::PatternMatcher for Matcher {
        fn is_match(&self, text: &str) -> bool {
            self.0.find(text).is_some()
        }
    }
}

#[cfg(feature = "schema")]
fn validate(schema: &str, input: &str) -> Result<(), String> {
    static ENGINE: patterns::Ecma = patterns::Ecma;
    jsonschema::set_default_pattern_engine(&ENGINE);
    let schema: serde_json::Value = serde_json::from_str(schema).map_err(|e| e.to_string())?;
    let value: serde_json::Value = serde_json::from_str(input).map_err(|e| e.to_string())?;
    let validator = jsonschema::draft202012::options()
        .with_pattern_options(jsonschema::PatternOptions::custom(&ENGINE))
        .build(&schema)
        .map_err(|e| e.to_string())?;
    match validator.iter_errors(&value).next() {
        Some(e) => Err(format!(
            "Input validation failed: {e} at {}",
            e.instance_path()
        )),
        None => Ok(()),
    }
}

#[cfg(not(feature = "schema"))]
fn validate(_schema: &str, _input: &str) -> Result<(), String> {
    Ok(())
}

thread_local! {
    /// One QuickJS runtime per thread; every call gets a fresh context in it.
    static RUNTIME: Result<Runtime, String> = Runtime::new().map_err(|e| e.to_string());
}

/// Validates `input` (JSON text) against `schema`, then runs `script`, which defines
/// `template(input)`, and returns its result as JSON text. `timeout_ms` and `memory` (bytes)
/// are enforced by QuickJS's interrupt handler and allocator limit.
pub fn run_native(
    script: &str,
    schema: &str,
    input: &str,
    timeout_ms: f64,
    memory: usize,
) -> Result<String, String> {
    validate(schema, input)?;
    let runtime = RUNTIME.with(|r| r.clone())?;
    runtime.set_memory_limit(memory);
    runtime.set_max_stack_size(256 * 1024);
    let deadline = now_ms() + timeout_ms;
    runtime.set_interrupt_handler(Some(Box::new(move || now_ms() > deadline)));
    let context = Context::full(&runtime).map_err(|e| e.to_string())?;
    context.with(|ctx| {
        let fail = |e: rquickjs::CaughtError<'_>| e.to_string();
        ctx.eval::<(), _>(script).catch(&ctx).map_err(fail)?;
        let globals: Object = ctx.globals();
        let template: Function = globals.get("template").catch(&ctx).map_err(fail)?;
        let json: Object = globals.get("JSON").catch(&ctx).map_err(fail)?;
        let parse: Function = json.get("parse").catch(&ctx).map_err(fail)?;
        let stringify: Function = json.get("stringify").catch(&ctx).map_err(fail)?;
        let argument: rquickjs::Value = parse.call((input,)).catch(&ctx).map_err(fail)?;
        let output: rquickjs::Value = template.call((argument,)).catch(&ctx).map_err(fail)?;
        stringify.call((output,)).catch(&ctx).map_err(fail)
    })
}

/// [`run_native`] for JavaScript: errors are thrown as strings.
#[wasm_bindgen]
pub fn run(
    script: &str,
    schema: &str,
    input: &str,
    timeout_ms: f64,
    memory: usize,
) -> Result<String, JsValue> {
    run_native(script, schema, input, timeout_ms, memory).map_err(|e| JsValue::from_str(&e))
}
