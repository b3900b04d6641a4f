//! Grok for JavaScript (`jobgraph_core::grok`): the batch API the service and the CLI answer
//! with, so a browser's grok panel shows exactly what they would. Its own WebAssembly module,
//! `jobgraph/grok` in the npm package: the package's main module leaves the grok engine out to
//! stay within its size budget (docs/npm-package.md, "Grok").
//!
//! It also runs job graphs on events: the main module's run bindings (`wasm/src/pipeline.rs`,
//! the same source file, compiled here with the grok engine), so that the package's `runJob`
//! runs a graph with a `grok-parser` in this module, with the record a native run gives.

use std::time::Duration;

/// The pipeline engine allocates per event; talc is faster at it than Rust's default wasm
/// allocator, as in the main module (`wasm/src/lib.rs`).
#[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

// The main module's source files, shared rather than copied: the run bindings, incremental
// runs and their conversions. Only part of `convert` serves runs (the resolver's errors do not arise here).
#[allow(dead_code)]
#[path = "../../wasm/src/convert.rs"]
mod convert;
#[cfg(feature = "incremental")]
#[path = "../../wasm/src/incremental/mod.rs"]
mod incremental;
#[path = "../../wasm/src/pipeline.rs"]
mod pipeline;

pub use pipeline::{EventSet, check_query, match_query_json, run_pipeline_json, run_pipeline_on};

use jobgraph_core::grok::{BatchLimits, GrokBatchRequest, GrokError, parse_batch_with};
use serde_json::{Value, json};
use wasm_bindgen::prelude::*;

/// A time limit in milliseconds from JavaScript (`NaN`, negative: the default).
fn millis(ms: f64, default: Duration) -> Duration {
    if ms.is_finite() && ms >= 0.0 {
        Duration::from_secs_f64((ms / 1000.0).min(3600.0))
    } else {
        default
    }
}

/// An error for the package to rethrow as a `JobgraphError`: its fields as JSON text.
fn error(fields: Value) -> JsValue {
    JsValue::from_str(&fields.to_string())
}

/// Parses `requestJson` (`{grokParser: {grokParsingRules, grokHelperRules?, …}, logSamples}`,
/// the rules arrays of strings or strings) and returns the `{results: […]}` JSON; each sample
/// may take `lineTimeLimitMs`, all of them `batchTimeLimitMs`. Throws the JSON text of
/// `{code: "INVALID_GROK_RULE", prefix, message, pointer, line, column}` (the rule error's
/// message; the rule's field and array item as a JSON pointer, its line and column)
/// when a rule does not compile, `INVALID_ARGUMENT` when the request is not such JSON.
#[wasm_bindgen(js_name = grokParseBatch)]
pub fn grok_parse_batch(
    request_json: String,
    line_time_limit_ms: f64,
    batch_time_limit_ms: f64,
) -> Result<String, JsValue> {
    let request: GrokBatchRequest = serde_json::from_str(&request_json).map_err(|e| {
        error(json!({
            "code": "INVALID_ARGUMENT",
            "prefix": "Invalid argument",
            "message": format!("Invalid argument: grok batch request: {e}"),
        }))
    })?;
    let defaults = BatchLimits::default();
    let limits = BatchLimits {
        line_time_limit: millis(line_time_limit_ms, defaults.line_time_limit),
        batch_time_limit: Some(millis(batch_time_limit_ms, Duration::from_secs(5))),
    };
    let response = parse_batch_with(&request, &limits).map_err(|e| {
        let mut fields = json!({
            "code": "INVALID_GROK_RULE",
            "prefix": "Invalid grok rule",
            "message": e.to_string(),
        });
        if let (Some(pointer), GrokError::Rule { line, column, .. }) = (e.pointer(), &e) {
            fields["pointer"] = json!(format!("/grokParser{pointer}"));
            fields["line"] = json!(line);
            fields["column"] = json!(column);
        }
        error(fields)
    })?;
    serde_json::to_string(&response).map_err(|e| {
        error(json!({"code": "INTERNAL", "prefix": "Internal error", "message": e.to_string()}))
    })
}
