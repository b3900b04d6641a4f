//! Reading a script's completion value as JSON, within the output limits.

use boa_engine::{Context, JsValue};
use serde_json::Value;

use super::limits::{LimitKind, Limits};
use super::outcome::{ScriptError, ScriptFailure};

pub(super) fn convert_result(
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
            super::js_json::read(value, context, limits.max_output_bytes).map_err(|e| match e {
                super::js_json::ReadError::NotJson(reason) => ScriptError::NotJson(reason),
                super::js_json::ReadError::TooLarge => {
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

/// Length of the compact JSON text of `value`, without building it (also the resolver's
/// `maxResolvedBytes` measure).
pub(crate) fn compact_len(value: &Value) -> usize {
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
