//! Input validation: `default` filling and JSON Schema 2020-12 validation of template inputs.
//!
//! - [`InputSchema`]: a compiled `inputSchema` (this file);
//! - `patterns`: the regular-expression engine of `pattern` and `patternProperties`;
//! - `defaults`: [`fill_defaults`], which fills absent inputs from `default`s.

mod defaults;
mod patterns;

use serde_json::Value;

use crate::validate::Problem;

pub use defaults::fill_defaults;
use patterns::{EcmaPatterns, Patterns};

/// A compiled `inputSchema`.
///
/// ```
/// use jobgraph_core::InputSchema;
/// use serde_json::json;
/// let schema = InputSchema::compile(Some(&json!({
///     "type": "object",
///     "properties": {"level": {"type": "string", "default": "info"},
///                    "limit": {"type": "number", "maximum": 10}},
///     "required": ["limit"]
/// }))).unwrap();
/// let filled = schema.check(json!({"limit": 3})).unwrap();
/// assert_eq!(filled, json!({"limit": 3, "level": "info"}));
/// let problems = schema.check(json!({"limit": 30})).unwrap_err();
/// assert_eq!(problems[0].pointer, "/limit");
/// ```
pub struct InputSchema {
    schema: Value,
    validator: Option<jsonschema::Validator>,
}

impl std::fmt::Debug for InputSchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InputSchema")
            .field("schema", &self.schema)
            .finish_non_exhaustive()
    }
}

impl InputSchema {
    /// Compiles a schema as JSON Schema 2020-12. `None` accepts any object.
    ///
    /// Fails with the schema problem when the schema itself is invalid.
    ///
    /// `pattern` and `patternProperties` are matched by jsonschema's built-in engines natively
    /// and by regress (ECMA-262, boa's `RegExp` engine) in the wasm build.
    pub fn compile(schema: Option<&Value>) -> Result<Self, SchemaError> {
        Self::compile_with(schema, Patterns::DEFAULT)
    }

    /// [`InputSchema::compile`] with the given engine for `pattern` and `patternProperties`.
    fn compile_with(schema: Option<&Value>, patterns: Patterns) -> Result<Self, SchemaError> {
        let Some(schema) = schema else {
            return Ok(InputSchema {
                schema: Value::Bool(true),
                validator: None,
            });
        };
        // Without built-in engines, jsonschema's own meta-schema validation (the schema is
        // checked against the 2020-12 meta-schema, which has patterns) needs an engine too.
        #[cfg(target_family = "wasm")]
        jsonschema::set_default_pattern_engine(&EcmaPatterns);
        let options = jsonschema::draft202012::options().with_retriever(NoRemoteDocuments);
        let options = match patterns {
            #[cfg(not(target_family = "wasm"))]
            Patterns::BuiltIn => options,
            Patterns::Ecma => {
                options.with_pattern_options(jsonschema::PatternOptions::custom(&EcmaPatterns))
            }
        };
        let validator = options.build(schema).map_err(|e| SchemaError {
            message: e.to_string(),
            schema_path: e.schema_path().as_str().to_owned(),
        })?;
        Ok(InputSchema {
            schema: schema.clone(),
            validator: Some(validator),
        })
    }

    /// Whether `instance` is valid, without filling defaults.
    pub fn is_valid(&self, instance: &Value) -> bool {
        self.validator.as_ref().is_none_or(|v| v.is_valid(instance))
    }

    /// Every violation of `instance` as given (no `default` filling), each with the JSON pointer
    /// of the offending value; empty when it is valid.
    pub fn problems(&self, instance: &Value) -> Vec<Problem> {
        let Some(validator) = &self.validator else {
            return Vec::new();
        };
        validator
            .iter_errors(instance)
            .map(|e| Problem {
                pointer: e.instance_path().as_str().to_owned(),
                message: e.to_string(),
            })
            .collect()
    }

    /// Fills `default`s into `values`, then validates; returns the filled values or every
    /// violation, each with the JSON pointer of the offending input.
    pub fn check(&self, mut values: Value) -> Result<Value, Vec<Problem>> {
        fill_defaults(&self.schema, &self.schema, &mut values, 0);
        let problems = self.problems(&values);
        if problems.is_empty() {
            Ok(values)
        } else {
            Err(problems)
        }
    }
}

/// A schema that is not valid JSON Schema 2020-12.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}{}", at_schema(schema_path))]
pub struct SchemaError {
    /// What is wrong.
    pub message: String,
    /// JSON pointer of the offending keyword in the schema (empty: the schema itself).
    pub schema_path: String,
}

fn at_schema(path: &str) -> String {
    if path.is_empty() {
        String::new()
    } else {
        format!(" (at schema {path})")
    }
}

/// Refuses every remote `$ref`: template inputs never cause network or file access, and the
/// message is the same on every platform.
struct NoRemoteDocuments;

impl jsonschema::Retrieve for NoRemoteDocuments {
    fn retrieve(
        &self,
        uri: &jsonschema::Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        Err(format!(
            "remote schema documents are never fetched (`$ref` to {uri}); put the definition under `$defs` and refer to it with `#/$defs/…`"
        )
        .into())
    }
}

#[cfg(test)]
mod tests;
