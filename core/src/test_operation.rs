//! The template *test* operation of `POST /v1/templates/test`: run one template's script with
//! inputs and return the graph it yields (nested template operations are left as they are).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{Error, Location};
use crate::execution::{Run, compile_schema, read_output, run_template};
use crate::graph::JobGraph;
use crate::sandbox::{InProcess, Limits, Sandbox};
use crate::template::Template;

/// The body of a test request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TestRequest {
    /// The complete template to test.
    pub template: Template,
    /// Inputs and draft flag.
    #[serde(default)]
    pub input: TestInput,
    /// When true, the result must be a valid job graph ([`crate::validate_job_graph`]); when
    /// false, only its shape (`vertices` of objects with string `type` and `name`, `edges` of
    /// strings) is checked.
    #[serde(default)]
    pub check_valid_job_graph: bool,
}

/// `input` of a test request.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TestInput {
    /// Run in draft mode.
    pub is_draft: bool,
    /// Values of the template's parameters.
    pub values: Map<String, Value>,
}

/// Runs the test operation: inputs validated (after defaults), script run, result read as a
/// graph. Fails with the contract errors.
///
/// ```
/// use jobgraph_core::{Limits, Template, TestRequest, test_template};
/// let request: TestRequest = serde_json::from_value(serde_json::json!({
///     "template": {"name": "Echo", "template": "({vertices: [{type: 'x', name: who}], edges: []})",
///                  "inputSchema": {"type": "object", "properties": {"who": {"type": "string"}},
///                                  "required": ["who"]}},
///     "input": {"values": {"who": "v1"}},
///     "checkValidJobGraph": true
/// })).unwrap();
/// let graph = test_template(&request, "ada", &Limits::default()).unwrap();
/// assert_eq!(graph.vertices[0].name(), "v1");
///
/// let mut bad = request.clone();
/// bad.input.values.clear();
/// let err = test_template(&bad, "ada", &Limits::default()).unwrap_err();
/// assert!(err.to_string().starts_with("Input validation failed: "));
/// ```
pub fn test_template(
    request: &TestRequest,
    user: &str,
    limits: &Limits,
) -> Result<JobGraph, Error> {
    crate::resolve::ready_now(test_template_with(request, user, limits, &InProcess))
}

/// [`test_template`] with the script run in `sandbox`.
pub async fn test_template_with<B: Sandbox + ?Sized>(
    request: &TestRequest,
    user: &str,
    limits: &Limits,
    sandbox: &B,
) -> Result<JobGraph, Error> {
    let template = &request.template;
    let at = Location {
        template_id: (!template.id.is_empty()).then(|| template.id.clone()),
        template_version: (template.version != 0).then_some(template.version),
        template: Some(template.label()),
        operation_path: Vec::new(),
    };
    let schema = compile_schema(template, &at)?;
    let output = run_template(
        Run {
            template,
            schema: &schema,
            inputs: request.input.values.clone(),
            draft: request.input.is_draft,
            user,
            limits,
            at: &at,
        },
        sandbox,
    )
    .await?;
    read_output(output, request.check_valid_job_graph, &at)
}
