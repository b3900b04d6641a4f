//! One template execution: inputs checked against the schema, the script run, the output read.
//! Shared by the resolver and the test operation.

use serde_json::{Map, Value};

use crate::error::{Error, Location};
use crate::graph::JobGraph;
use crate::inputs::InputSchema;
use crate::sandbox::{Limits, Sandbox, ScriptError, ScriptInput};
use crate::template::Template;
use crate::validate::{Problem, join_problems, validate_job_graph};

/// Globals every script gets; inputs may not use these names.
pub const RESERVED_NAMES: [&str; 2] = ["draft", "user"];

/// Compiles a template's `inputSchema`, reporting a broken schema as an invalid template.
pub(crate) fn compile_schema(template: &Template, at: &Location) -> Result<InputSchema, Error> {
    InputSchema::compile(template.input_schema.as_ref()).map_err(|e| Error::InvalidTemplate {
        reason: format!("its inputSchema is not a valid JSON Schema 2020-12: {e}"),
        at: Box::new(at.clone()),
    })
}

/// What a template execution needs besides the template.
pub(crate) struct Run<'a> {
    pub template: &'a Template,
    pub schema: &'a InputSchema,
    pub inputs: Map<String, Value>,
    pub draft: bool,
    pub user: &'a str,
    pub limits: &'a Limits,
    pub at: &'a Location,
}

/// Validates the inputs (after filling defaults) and runs the script in `sandbox`; returns its
/// JSON result.
pub(crate) async fn run_template<B: Sandbox + ?Sized>(
    run: Run<'_>,
    sandbox: &B,
) -> Result<Value, Error> {
    let at = run.at;
    let mut problems: Vec<Problem> = RESERVED_NAMES
        .iter()
        .filter(|name| run.inputs.contains_key(**name))
        .map(|name| Problem {
            pointer: format!("/{name}"),
            message: format!(
                "`{name}` is reserved for the script's own `{name}` variable; rename the input"
            ),
        })
        .collect();
    let values = match run.schema.check(Value::Object(run.inputs)) {
        Ok(Value::Object(values)) => values,
        Ok(other) => {
            problems.push(Problem {
                pointer: String::new(),
                message: format!(
                    "inputs must be an object, found {}",
                    crate::graph::kind_of(&other)
                ),
            });
            Map::new()
        }
        Err(mut found) => {
            problems.append(&mut found);
            Map::new()
        }
    };
    if !problems.is_empty() {
        return Err(Error::InvalidInputs {
            problems,
            at: Box::new(at.clone()),
        });
    }
    let declared = run.template.parameter_names();
    let input = ScriptInput {
        source: &run.template.template,
        declared: &declared,
        variables: &values,
        draft: run.draft,
        user: run.user,
    };
    sandbox.run(&input, run.limits).await.map_err(|e| match e {
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
    })
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
    JobGraph::from_value(value).map_err(|message| {
        let (pointer, message) = match message.split_once(": ") {
            Some((pointer, rest)) if pointer.starts_with('/') => {
                (pointer.to_owned(), rest.to_owned())
            }
            _ => (String::new(), message),
        };
        invalid(vec![Problem { pointer, message }])
    })
}
