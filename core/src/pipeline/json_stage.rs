//! The `json-log-processor` vertex (`docs/pipeline.md`, "`json-log-processor`"): a message that
//! is a JSON object becomes attributes; JSON objects serialized as text inside the attributes
//! (`resolveNestedJsonFields`) are decoded too.
//!
//! [`JsonStage::apply`] on one event:
//! 1. **The message.** When `message`, spaces around it aside, is a JSON object, its fields are
//!    deep-merged into `attributes` (objects merge key by key; any other value replaces the
//!    one there) and `message` becomes `""`, or stays as it was with
//!    `preserveJsonMessageField`. Anything else (no message, text, a JSON array or number,
//!    malformed or too deeply nested JSON) leaves the message and attributes as they are.
//! 2. **Nested JSON.** Up to `maxNestedJsonIterations` passes over the `resolveNestedJsonFields`
//!    paths, in order: a string there that is a JSON object is removed and its fields are
//!    deep-merged into the root of `attributes`. A pass that decodes nothing ends them.
//! 3. Every object parsed (the message, each decoded field) first has its `liftFieldNames`
//!    lifted (an object-valued field among them is replaced by its own fields, merged into the
//!    object that held it; repeated while one is left), then is cut at
//!    `maxNestedDepthForFields`: an object or array whose fields would lie deeper than that
//!    (the top-level fields of `attributes` are at depth 1) is kept as its compact JSON text.
//!
//! The well-known fields (`eventTimestamp`, `severity`, tags such as `service` or `host`) are
//! not touched: the JSON's `timestamp`, `level` or `service` are attributes like any other, for
//! a `log-attributes-remapper` to move.
//!
//! ```
//! use jobgraph_core::JobGraph;
//! use jobgraph_core::pipeline::{Pipeline, RunInput, RunOptions, read_events};
//! let graph: JobGraph = serde_json::from_value(serde_json::json!({
//!     "vertices": [
//!         {"type": "logs-iceberg-table-source", "name": "in"},
//!         {"type": "json-log-processor", "name": "json"},
//!         {"type": "logs-sync-sink", "name": "out"}],
//!     "edges": ["in -> json", "json -> out"]})).unwrap();
//! let events = read_events(r#"{"message": "{\"msg\": \"Example log message\", \"log\": {\"level\": \"INFO\"}}"}"#).unwrap();
//! let run = Pipeline::compile(&graph).unwrap()
//!     .run(RunInput { events, ..Default::default() }, &RunOptions::default()).unwrap();
//! assert_eq!(serde_json::to_string(&run.sinks["out"][0]).unwrap(),
//!     r#"{"message":"","attributes":{"msg":"Example log message","log":{"level":"INFO"}}}"#);
//! ```

use serde_json::{Map, Value};

use super::RunError;
use super::attr_tree;
use super::typed::typed;
use jobgraph_model::LogEvent;
use jobgraph_model::ops::transforms::json_log_processor::{JsonLogProcessor, OPERATION};

/// A compiled `json-log-processor`.
#[derive(Debug, Clone)]
pub(crate) struct JsonStage {
    max_depth: u64,
    iterations: u64,
    nested: Vec<Vec<String>>,
    preserve_message: bool,
    lift: Vec<String>,
}

/// Reads the vertex's fields (`docs/pipeline.md` lists them with their defaults).
pub(crate) fn compile(vertex: &str, fields: &Map<String, Value>) -> Result<JsonStage, RunError> {
    let config: JsonLogProcessor = typed(vertex, &OPERATION, fields)?;
    Ok(JsonStage {
        max_depth: config.max_nested_depth_for_fields.unwrap_or(3),
        iterations: config.max_nested_json_iterations.unwrap_or(5),
        nested: config.resolve_nested_json_fields.unwrap_or_else(|| {
            ["message", "msg", "log"]
                .iter()
                .map(|k| vec![(*k).to_owned()])
                .collect()
        }),
        preserve_message: config.preserve_json_message_field.unwrap_or(false),
        lift: config.lift_field_names.unwrap_or_default(),
    })
}

/// A JSON object in `text` (spaces around it allowed), or `None`.
fn object_in(text: &str) -> Option<Map<String, Value>> {
    if !text.trim_start().starts_with('{') {
        return None;
    }
    // serde_json refuses nesting past 128 levels: such a message is malformed here, never a
    // deep recursion.
    serde_json::from_str(text).ok()
}

impl JsonStage {
    /// Parses one event in place (see the module's documentation).
    pub(crate) fn apply(&self, event: &mut LogEvent) {
        let Ok(existing) = attr_tree::read(event) else {
            return;
        };
        let parsed = event.message.as_deref().and_then(object_in);
        let mut changed = parsed.is_some();
        let mut attributes = match (parsed, existing) {
            (Some(fields), existing) => {
                let mut attributes = existing.unwrap_or_default();
                attr_tree::deep_merge(&mut attributes, self.shape(fields));
                if !self.preserve_message {
                    event.message = Some(String::new());
                }
                attributes
            }
            (None, Some(existing)) => existing,
            (None, None) => return,
        };
        for _ in 0..self.iterations {
            let mut decoded = false;
            for path in &self.nested {
                let Some(fields) = attr_tree::get(&attributes, path)
                    .and_then(Value::as_str)
                    .and_then(object_in)
                else {
                    continue;
                };
                attr_tree::remove(&mut attributes, path);
                attr_tree::deep_merge(&mut attributes, self.shape(fields));
                decoded = true;
            }
            if !decoded {
                break;
            }
            changed = true;
        }
        if changed {
            attr_tree::write(event, attributes);
        }
    }

    /// Lifts `liftFieldNames` and cuts at `maxNestedDepthForFields` an object just parsed.
    fn shape(&self, mut fields: Map<String, Value>) -> Map<String, Value> {
        // Each lift removes a key and adds fields from one level down: it ends.
        'lifting: loop {
            for name in &self.lift {
                if let Some(Value::Object(_)) = fields.get(name) {
                    if let Some(Value::Object(children)) = fields.shift_remove(name) {
                        attr_tree::deep_merge(&mut fields, children);
                    }
                    continue 'lifting;
                }
            }
            break;
        }
        for value in fields.values_mut() {
            cut(value, 1, self.max_depth);
        }
        fields
    }
}

/// Replaces a container at `depth` whose items would lie deeper than `max` by its JSON text.
fn cut(value: &mut Value, depth: u64, max: u64) {
    match value {
        Value::Object(_) | Value::Array(_) if depth >= max => {
            *value = Value::String(serde_json::to_string(value).unwrap_or_default());
        }
        Value::Object(map) => map.values_mut().for_each(|v| cut(v, depth + 1, max)),
        Value::Array(items) => items.iter_mut().for_each(|v| cut(v, depth + 1, max)),
        _ => {}
    }
}

#[cfg(test)]
mod tests;
