//! Input validation: `default` filling and JSON Schema 2020-12 validation of template inputs.
//!
//! - [`InputSchema`]: a compiled `inputSchema` (this file);
//! - `bounds`: what a schema may hold before it is compiled ([`SchemaBounds`]);
//! - `patterns`: the regular-expression engine of `pattern` and `patternProperties`;
//! - `budget`: the time those regular expressions may take ([`MatchBudget`]);
//! - `defaults`: [`fill_defaults`], which fills absent inputs from `default`s.

mod bounds;
mod budget;
mod defaults;
mod patterns;

use serde_json::Value;

use crate::Problem;
use crate::sandbox::Limits;

pub use bounds::SchemaBounds;
pub use budget::MatchBudget;
#[cfg(feature = "grok")]
pub(crate) use budget::Active as DeadlineGuard;
// The grok engine and the reducer's custom masks (pipeline/reduce/mask.rs) bound their regress
// matches with this deadline: not behind feature `grok`, which the npm package's main module
// leaves off.
pub(crate) use budget::begin as begin_deadline;
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
    /// Fails with the schema problem when the schema itself is invalid, or larger than
    /// [`SchemaBounds::default`] allows (patterns, `enum`s, nesting, `$ref`s, size).
    ///
    /// `pattern` and `patternProperties` are matched by regress (ECMA-262, boa's `RegExp`
    /// engine) in every build, each match under the validation's [`MatchBudget`].
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
        SchemaBounds::default().check(schema)?;
        // Without built-in engines, jsonschema's own meta-schema validation (the schema is
        // checked against the 2020-12 meta-schema, which has patterns) needs an engine too.
        #[cfg(target_family = "wasm")]
        jsonschema::set_default_pattern_engine(&EcmaPatterns);
        let options = jsonschema::draft202012::options().with_retriever(NoRemoteDocuments);
        let options = match patterns {
            #[cfg(all(test, not(target_family = "wasm")))]
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

    /// Whether `instance` is valid, without filling defaults (patterns matched under the
    /// default [`Limits::timeout_ms`]; a stopped match makes it invalid).
    pub fn is_valid(&self, instance: &Value) -> bool {
        let Some(validator) = &self.validator else {
            return true;
        };
        let budget = MatchBudget::new(&Limits::default(), None);
        let active = budget::begin(budget.deadline);
        let valid = validator.is_valid(instance);
        drop(active);
        budget::take_stop().is_none() && valid
    }

    /// Every violation of `instance` as given (no `default` filling), each with the JSON pointer
    /// of the offending value; empty when it is valid. Patterns are matched under the default
    /// [`Limits::timeout_ms`]; [`InputSchema::problems_within`] takes a budget.
    pub fn problems(&self, instance: &Value) -> Vec<Problem> {
        self.problems_within(instance, &MatchBudget::new(&Limits::default(), None))
    }

    /// [`InputSchema::problems`] with the regular expressions' time bounded by `budget`. When
    /// a match is stopped, the one problem is that: the value's pointer, the limit and the
    /// pattern's place in the schema (`pattern matching exceeded the time limit of 1000 ms
    /// (schema /properties/x/pattern; raise `timeoutMs`, CLI `--timeout-ms`)`).
    pub fn problems_within(&self, instance: &Value, budget: &MatchBudget) -> Vec<Problem> {
        let Some(validator) = &self.validator else {
            return Vec::new();
        };
        let active = budget::begin(budget.deadline);
        let problems: Vec<Problem> = validator
            .iter_errors(instance)
            .map(|e| Problem {
                pointer: e.instance_path().as_str().to_owned(),
                message: e.to_string(),
            })
            .collect();
        drop(active);
        match budget::take_stop() {
            None => problems,
            Some(stop) => vec![Problem {
                pointer: bounds::pointer_of_text(instance, &stop.text).unwrap_or_default(),
                message: format!(
                    "pattern matching exceeded the {} (schema {}; {})",
                    budget.limit.to_string().trim_end_matches(" exceeded"),
                    bounds::pointer_of_pattern(&self.schema, &stop.pattern).unwrap_or_else(
                        || format!("pattern {:?}", crate::json::excerpt(&stop.pattern, 100))
                    ),
                    budget.limit.remedy()
                ),
            }],
        }
    }

    /// Fills `default`s into `values`, then validates; returns the filled values or every
    /// violation, each with the JSON pointer of the offending input. Patterns are matched
    /// under the default [`Limits::timeout_ms`]; [`InputSchema::check_within`] takes a budget.
    pub fn check(&self, values: Value) -> Result<Value, Vec<Problem>> {
        self.check_within(values, &MatchBudget::new(&Limits::default(), None))
    }

    /// [`InputSchema::check`] with the regular expressions' time bounded by `budget`.
    pub fn check_within(
        &self,
        mut values: Value,
        budget: &MatchBudget,
    ) -> Result<Value, Vec<Problem>> {
        fill_defaults(&self.schema, &self.schema, &mut values, 0);
        let problems = self.problems_within(&values, budget);
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
