//! One template execution, in three steps shared by resolution and the test operation: the
//! inputs checked against the schema ([`check_inputs`]), the script run (by the caller, through
//! the execution cache and the sandbox), and the output read as a graph ([`read_output`]).

use std::sync::Arc;

use serde_json::{Map, Value};

use super::schemas::SchemaCache;
use crate::error::{Error, Location};
use crate::graph::JobGraph;
use crate::inputs::InputSchema;
use crate::sandbox::ScriptError;
use crate::template::Template;
use crate::validate::{Problem, join_problems, validate_job_graph};

/// Globals every script gets; inputs may not use these names.
pub(crate) const RESERVED_NAMES: [&str; 2] = ["draft", "user"];

/// A fetched template version with what every execution of it needs, computed once per
/// resolution.
#[derive(Debug)]
pub(crate) struct PreparedTemplate {
    pub template: Arc<Template>,
    pub schema: Arc<InputSchema>,
    /// The `inputSchema`'s properties, bound to `undefined` when absent.
    pub declared: Vec<String>,
    /// [`Template::source_hash`].
    pub source_hash: String,
}

impl PreparedTemplate {
    /// Compiles the template's `inputSchema` (or takes it from `schemas`), reporting a broken
    /// schema as an invalid template.
    pub fn new(
        template: Arc<Template>,
        schemas: &SchemaCache,
        at: &Location,
    ) -> Result<Self, Error> {
        let schema = schemas
            .compile(template.input_schema.as_ref())
            .map_err(|e| Error::InvalidTemplate {
                reason: format!("its inputSchema is not a valid JSON Schema 2020-12: {e}"),
                at: Box::new(at.clone()),
            })?;
        Ok(PreparedTemplate {
            declared: template.parameter_names(),
            source_hash: template.source_hash(),
            template,
            schema,
        })
    }
}

/// Validates `inputs` against the template's schema after filling defaults; returns the
/// values the script gets.
pub(crate) fn check_inputs(
    prepared: &PreparedTemplate,
    inputs: Map<String, Value>,
    at: &Location,
) -> Result<Map<String, Value>, Error> {
    let mut problems: Vec<Problem> = RESERVED_NAMES
        .iter()
        .filter(|name| inputs.contains_key(**name))
        .map(|name| Problem {
            pointer: format!("/{name}"),
            message: format!(
                "`{name}` is reserved for the script's own `{name}` variable; rename the input"
            ),
        })
        .collect();
    let values = match prepared.schema.check(Value::Object(inputs)) {
        Ok(Value::Object(values)) => values,
        Ok(other) => {
            problems.push(Problem {
                pointer: String::new(),
                message: format!(
                    "inputs must be an object, found {}",
                    crate::json::kind_of(&other)
                ),
            });
            Map::new()
        }
        Err(mut found) => {
            problems.append(&mut found);
            Map::new()
        }
    };
    if problems.is_empty() {
        Ok(values)
    } else {
        Err(Error::InvalidInputs {
            problems,
            at: Box::new(at.clone()),
        })
    }
}

/// The contract error for a script that produced no graph.
pub(crate) fn script_error(error: ScriptError, at: &Location) -> Error {
    match error {
        ScriptError::ReturnedNothing => Error::ReturnedNothing {
            at: Box::new(at.clone()),
        },
        ScriptError::Failed(failure) => Error::ScriptFailed {
            failure: Box::new(failure),
            at: Box::new(at.clone()),
        },
        ScriptError::NotJson(reason) => Error::InvalidOutput {
            reason,
            problems: Vec::new(),
            at: Box::new(at.clone()),
        },
    }
}

/// Reads a script result as a job graph. With `full_check`, the graph must also pass
/// [`validate_job_graph`]; without it, only its shape is checked.
pub(crate) fn read_output(
    value: Value,
    full_check: bool,
    at: &Location,
) -> Result<JobGraph, Error> {
    let invalid = |problems: Vec<Problem>| Error::InvalidOutput {
        reason: join_problems(&problems),
        problems,
        at: Box::new(at.clone()),
    };
    if full_check {
        let problems = validate_job_graph(&value);
        if !problems.is_empty() {
            return Err(invalid(problems));
        }
    }
    JobGraph::from_value(value).map_err(|e| {
        invalid(vec![Problem {
            pointer: e.pointer,
            message: e.message,
        }])
    })
}
