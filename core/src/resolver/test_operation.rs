//! The template *test* operation of `POST /v1/templates/test`: run one template's script with
//! inputs and return the graph it yields (nested template operations are left as they are).

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::Resolver;
use super::cache::CacheKey;
use super::execution::{PreparedTemplate, check_inputs, read_output, script_error};
use super::schemas;
use crate::JobGraph;
use crate::Template;
use crate::error::{Error, Location};
use crate::inputs::MatchBudget;
use crate::sandbox::ScriptInput;

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
    /// strings) is checked. Also read as `checkValidGreprJobGraph` (the public client's name).
    #[serde(default, alias = "checkValidGreprJobGraph")]
    pub check_valid_job_graph: bool,
}

/// `input` of a test request.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TestInput {
    /// Run in draft mode. Also read as `draft` (the public client's name).
    #[serde(alias = "draft")]
    pub is_draft: bool,
    /// Values of the template's parameters.
    pub values: Map<String, Value>,
}

impl<S> Resolver<S> {
    /// Runs the test operation: inputs validated (after defaults), script run as the
    /// resolver's user, result read as a graph. Fails with the contract errors. The template
    /// source is not used.
    ///
    /// ```
    /// use jobgraph_core::{Resolver, TemplateSet, TestRequest};
    /// let request: TestRequest = serde_json::from_value(serde_json::json!({
    ///     "template": {"name": "Echo", "template": "({vertices: [{type: 'x', name: who}], edges: []})",
    ///                  "inputSchema": {"type": "object", "properties": {"who": {"type": "string"}},
    ///                                  "required": ["who"]}},
    ///     "input": {"values": {"who": "v1"}},
    ///     "checkValidJobGraph": true
    /// })).unwrap();
    /// let resolver = Resolver::builder(TemplateSet::new()).user("ada").build();
    /// let graph = resolver.test_blocking(&request).unwrap();
    /// assert_eq!(graph.vertices[0].name(), "v1");
    ///
    /// let mut bad = request.clone();
    /// bad.input.values.clear();
    /// let err = resolver.test_blocking(&bad).unwrap_err();
    /// assert!(err.to_string().starts_with("Input validation failed: "));
    /// ```
    pub async fn test(&self, request: &TestRequest) -> Result<JobGraph, Error> {
        let template = &request.template;
        let at = Location {
            template_id: (!template.id.is_empty()).then(|| template.id.clone()),
            template_version: (template.version != 0).then_some(template.version),
            template: Some(template.label()),
            operation_path: Vec::new(),
        };
        let prepared = PreparedTemplate::new(Arc::new(template.clone()), schemas::shared(), &at)?;
        let budget = MatchBudget::new(&self.options.limits, None);
        let values = check_inputs(&prepared, request.input.values.clone(), &at, &budget)?;
        let options = &self.options;
        let key = CacheKey::new(
            template,
            &prepared.source_hash,
            &values,
            request.input.is_draft,
            &options.user,
            &options.limits,
        );
        let value = match self.cache.get(&key) {
            Some(hit) => Value::clone(&hit),
            None => {
                let input = ScriptInput {
                    source: &template.template,
                    declared: &prepared.declared,
                    variables: &values,
                    draft: request.input.is_draft,
                    user: &options.user,
                };
                let output = self
                    .sandbox
                    .run(input, &options.limits)
                    .await
                    .map_err(|e| script_error(e, &at))?;
                if !output.nondeterministic {
                    self.cache.insert(key, Arc::new(output.value.clone()));
                }
                output.value
            }
        };
        read_output(value, request.check_valid_job_graph, &at)
    }
}
