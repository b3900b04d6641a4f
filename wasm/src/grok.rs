//! Grok for JavaScript (`jobgraph_core::grok`): the batch API the service and the CLI answer
//! with, so a browser's grok panel shows exactly what they would.

use std::time::Duration;

use jobgraph_core::grok::{BatchLimits, GrokBatchRequest, GrokError, parse_batch_with};
use wasm_bindgen::prelude::*;

use crate::convert::{RawError, parse_json};

/// A time limit in milliseconds from JavaScript (`NaN`, negative: the default).
fn millis(ms: f64, default: Duration) -> Duration {
    if ms.is_finite() && ms >= 0.0 {
        Duration::from_secs_f64((ms / 1000.0).min(3600.0))
    } else {
        default
    }
}

/// Parses `requestJson` (`{grokParser: {grokParsingRules, grokHelperRules?, …}, logSamples}`)
/// and returns the `{results: […]}` JSON; each sample may take `lineTimeLimitMs`, all of them
/// `batchTimeLimitMs`. Throws `{code: "INVALID_GROK_RULE", message, pointer, line, column}`
/// (the rule error's message; the field, line and column of the rule) when a rule does not
/// compile, `INVALID_ARGUMENT` when the request is not such
/// JSON.
#[wasm_bindgen(js_name = grokParseBatch)]
pub fn grok_parse_batch(
    request_json: String,
    line_time_limit_ms: f64,
    batch_time_limit_ms: f64,
) -> Result<String, JsValue> {
    let request: GrokBatchRequest = parse_json(&request_json, "grok batch request")?;
    let defaults = BatchLimits::default();
    let limits = BatchLimits {
        line_time_limit: millis(line_time_limit_ms, defaults.line_time_limit),
        batch_time_limit: Some(millis(batch_time_limit_ms, Duration::from_secs(5))),
    };
    let response = parse_batch_with(&request, &limits).map_err(|e| {
        let raw = RawError::new("INVALID_GROK_RULE", "Invalid grok rule", e.to_string());
        match e {
            GrokError::Rule {
                helper,
                line,
                column,
                ..
            } => {
                let field = if helper {
                    "/grokParser/grokHelperRules"
                } else {
                    "/grokParser/grokParsingRules"
                };
                raw.at(field, line, column)
            }
            GrokError::TimeLimit { .. } => raw,
        }
        .into_js()
    })?;
    serde_json::to_string(&response).map_err(|e| JsValue::from_str(&e.to_string()))
}
