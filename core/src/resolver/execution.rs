//! One template execution, in three steps shared by resolution and the test operation: the
//! inputs checked against the schema ([`check_inputs`]), the script run (by the caller, through
//! the execution cache and the sandbox), and the output read as a graph ([`read_output`]).

use std::sync::Arc;

use serde_json::{Map, Value};

use super::schemas::SchemaCache;
use crate::JobGraph;
use crate::Template;
use crate::error::{Error, Location};
use crate::inputs::{InputSchema, MatchBudget};
use crate::sandbox::ScriptError;
use crate::validate::validate_job_graph;
use crate::{Problem, join_problems};

/// Globals every script gets; inputs may not use these names.
pub(crate) const RESERVED_NAMES: [&str; 2] = ["draft", "user"];

/// The global names of standard ECMAScript (ECMA-262 §19, with `Intl` and `Temporal`): an input
/// of one of these names would hide the built-in from the script (`Math` an input value,
/// `undefined` defined), so it is refused instead.
pub(crate) const STANDARD_GLOBALS: [&str; 63] = [
    "globalThis",
    "Infinity",
    "NaN",
    "undefined",
    "eval",
    "isFinite",
    "isNaN",
    "parseFloat",
    "parseInt",
    "decodeURI",
    "decodeURIComponent",
    "encodeURI",
    "encodeURIComponent",
    "escape",
    "unescape",
    "AggregateError",
    "Array",
    "ArrayBuffer",
    "BigInt",
    "BigInt64Array",
    "BigUint64Array",
    "Boolean",
    "DataView",
    "Date",
    "Error",
    "EvalError",
    "FinalizationRegistry",
    "Float16Array",
    "Float32Array",
    "Float64Array",
    "Function",
    "Int8Array",
    "Int16Array",
    "Int32Array",
    "Iterator",
    "Map",
    "Number",
    "Object",
    "Promise",
    "Proxy",
    "RangeError",
    "ReferenceError",
    "RegExp",
    "Set",
    "SharedArrayBuffer",
    "String",
    "Symbol",
    "SyntaxError",
    "TypeError",
    "Uint8Array",
    "Uint8ClampedArray",
    "Uint16Array",
    "Uint32Array",
    "URIError",
    "WeakMap",
    "WeakRef",
    "WeakSet",
    "Atomics",
    "JSON",
    "Math",
    "Reflect",
    "Intl",
    "Temporal",
];

/// Why an input named `name` cannot be given to a script, if it cannot.
fn refused_name(name: &str) -> Option<String> {
    if RESERVED_NAMES.contains(&name) {
        return Some(format!(
            "`{name}` is reserved for the script's own `{name}` variable; rename the input"
        ));
    }
    STANDARD_GLOBALS.contains(&name).then(|| {
        format!(
            "`{name}` would hide the standard global `{name}` from the script; rename the input"
        )
    })
}

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
        let declared = template.parameter_names();
        if let Some((name, why)) = declared
            .iter()
            .find_map(|name| refused_name(name).map(|why| (name, why)))
        {
            return Err(Error::InvalidTemplate {
                reason: format!("its inputSchema declares the property {name:?}: {why}"),
                at: Box::new(at.clone()),
            });
        }
        Ok(PreparedTemplate {
            declared,
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
    budget: &MatchBudget,
) -> Result<Map<String, Value>, Error> {
    let mut problems: Vec<Problem> = inputs
        .keys()
        .filter_map(|name| {
            refused_name(name).map(|message| Problem {
                pointer: format!("/{}", crate::json::excerpt(&pointer_token(name), 200)),
                message,
            })
        })
        .collect();
    let values = match prepared.schema.check_within(Value::Object(inputs), budget) {
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

/// `name` as a JSON pointer token (RFC 6901: `~` as `~0`, `/` as `~1`).
fn pointer_token(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
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
    JobGraph::from_value(value).map_err(|e| invalid(vec![e]))
}
