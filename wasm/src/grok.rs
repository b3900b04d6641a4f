//! Grok for JavaScript (`jobgraph_core::grok`): the batch API the service and the CLI answer
//! with, so a browser's grok panel shows exactly what they would.

use jobgraph_core::grok::{GrokBatchRequest, parse_batch};
use wasm_bindgen::prelude::*;

use crate::convert::{RawError, parse_json};

/// Parses `requestJson` (`{grokParser: {grokParsingRules, grokHelperRules?, …}, logSamples}`)
/// and returns the `{results: […]}` JSON; throws `{code: "INVALID_GROK_RULE", message}` (the
/// message is the rule error's) when a rule does not compile, `INVALID_ARGUMENT` when the
/// request is not such JSON.
#[wasm_bindgen(js_name = grokParseBatch)]
pub fn grok_parse_batch(request_json: String) -> Result<String, JsValue> {
    let request: GrokBatchRequest = parse_json(&request_json, "grok batch request")?;
    let response = parse_batch(&request).map_err(|e| {
        RawError::new("INVALID_GROK_RULE", "Invalid grok rule", e.to_string()).into_js()
    })?;
    serde_json::to_string(&response).map_err(|e| JsValue::from_str(&e.to_string()))
}
