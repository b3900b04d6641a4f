//! Values across the boundary: the error object thrown to JavaScript, options in, results out
//! (as JSON text, parsed by the engine).

use jobgraph_core::Error;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use wasm_bindgen::prelude::*;

/// The error object thrown to JavaScript.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RawError {
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
    pub(crate) fn from_core(error: &Error) -> Self {
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
    pub(crate) fn new(code: &str, prefix: &str, message: String) -> Self {
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

    pub(crate) fn usage(message: String) -> Self {
        Self::new(
            "INVALID_ARGUMENT",
            "Invalid argument",
            format!("Invalid argument: {message}"),
        )
    }

    pub(crate) fn into_js(self) -> JsValue {
        to_js(&self).unwrap_or_else(|e| e)
    }
}

/// Through JSON text: serde_json's `arbitrary_precision` numbers (which keep a number's exact
/// text) serialize as a private map with any other serializer.
pub(crate) fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value).map_err(|e| JsValue::from_str(&e.to_string()))?;
    js_sys::JSON::parse(&text)
}

pub(crate) fn from_js<T: for<'de> Deserialize<'de> + Default>(
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
pub(crate) fn parse_json<T: for<'de> Deserialize<'de>>(
    text: &str,
    what: &str,
) -> Result<T, JsValue> {
    let value = jobgraph_core::parse_json(text)
        .map_err(|e| RawError::usage(format!("{what}: {e}")).into_js())?;
    serde_json::from_value(value).map_err(|e| RawError::usage(format!("{what}: {e}")).into_js())
}

/// Results go out as JSON text parsed by the engine: exact, and faster than building objects
/// field by field across the boundary.
pub(crate) fn json_out(value: &Value) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value).map_err(|e| JsValue::from_str(&e.to_string()))?;
    js_sys::JSON::parse(&text)
}
