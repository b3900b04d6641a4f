//! A vertex's fields read as its catalog entry's typed configuration (`jobgraph_model::ops`),
//! for the stages that compile from one (`sampler`, `json_stage`, `keyvalue`, `remap`).

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::RunError;
use jobgraph_model::ops::Operation;

/// Reads a vertex's fields as its catalog entry's typed configuration, after checking them
/// against the entry (`jobgraph_model::ops::check_config`): the first problem fails with the
/// field's JSON pointer and what it must be (`/maxBurstLimit: must be an integer of at least
/// 1, found a string`).
pub(crate) fn typed<T: DeserializeOwned>(
    vertex: &str,
    op: &Operation,
    fields: &Map<String, Value>,
) -> Result<T, RunError> {
    check(vertex, op, fields)?;
    serde_json::from_value(Value::Object(fields.clone())).map_err(|e| RunError::Vertex {
        vertex: vertex.to_owned(),
        message: format!("its fields are not a {} configuration: {e}", op.type_name),
    })
}

/// Checks a vertex's fields against its catalog entry: the first problem fails with the field's
/// JSON pointer and what it must be.
pub(crate) fn check(
    vertex: &str,
    op: &Operation,
    fields: &Map<String, Value>,
) -> Result<(), RunError> {
    let mut first = None;
    jobgraph_model::ops::check_config(op, fields, "", &mut |pointer, message| {
        first.get_or_insert(format!("{pointer}: {message}"));
    });
    match first {
        Some(message) => Err(RunError::Vertex {
            vertex: vertex.to_owned(),
            message,
        }),
        None => Ok(()),
    }
}
