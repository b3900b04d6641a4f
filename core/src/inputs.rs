//! Input validation: `default` filling and JSON Schema 2020-12 validation of template inputs.

use serde_json::{Map, Value};

use crate::validate::Problem;

/// How deep default filling follows nested schemas and `$ref`s before it stops.
const MAX_DEFAULT_DEPTH: usize = 64;

/// How many (sub)schema applications one default filling may make. The depth limit alone does
/// not bound the work: `allOf: [{$ref: "#"}, {$ref: "#"}]` doubles it at every level (found by
/// the `template_loading` fuzz target), and so do two properties whose defaults recurse.
const MAX_DEFAULT_VISITS: usize = 100_000;

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
    pub fn compile(schema: Option<&Value>) -> Result<Self, SchemaError> {
        let Some(schema) = schema else {
            return Ok(InputSchema {
                schema: Value::Bool(true),
                validator: None,
            });
        };
        let validator = jsonschema::draft202012::options()
            .with_retriever(NoRemoteDocuments)
            .build(schema)
            .map_err(|e| SchemaError {
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

    /// Fills `default`s into `values`, then validates; returns the filled values or every
    /// violation, each with the JSON pointer of the offending input.
    pub fn check(&self, mut values: Value) -> Result<Value, Vec<Problem>> {
        fill_defaults(&self.schema, &self.schema, &mut values, 0);
        let Some(validator) = &self.validator else {
            return Ok(values);
        };
        let problems: Vec<Problem> = validator
            .iter_errors(&values)
            .map(|e| Problem {
                pointer: e.instance_path().as_str().to_owned(),
                message: e.to_string(),
            })
            .collect();
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

/// Fills absent properties that have a `default`, recursively through `properties`, `items`,
/// `prefixItems`, `allOf` and local `$ref`s. Present values are never changed.
/// Stops after [`MAX_DEFAULT_VISITS`] schema applications.
pub fn fill_defaults(root: &Value, schema: &Value, instance: &mut Value, depth: usize) {
    let mut budget = MAX_DEFAULT_VISITS;
    fill(root, schema, instance, depth, &mut budget);
}

fn fill(root: &Value, schema: &Value, instance: &mut Value, depth: usize, budget: &mut usize) {
    if depth > MAX_DEFAULT_DEPTH || *budget == 0 {
        return;
    }
    *budget -= 1;
    let Some(schema) = schema.as_object() else {
        return;
    };
    if let Some(target) = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix('#'))
        .and_then(|pointer| root.pointer(pointer))
    {
        fill(root, target, instance, depth + 1, budget);
    }
    if let Some(Value::Array(all)) = schema.get("allOf") {
        for sub in all {
            fill(root, sub, instance, depth + 1, budget);
        }
    }
    match instance {
        Value::Object(object) => fill_object(root, schema, object, depth, budget),
        Value::Array(items) => {
            let prefix = schema.get("prefixItems").and_then(Value::as_array);
            let prefix_len = prefix.map_or(0, Vec::len);
            for (i, item) in items.iter_mut().enumerate() {
                let sub = match prefix {
                    Some(p) if i < prefix_len => p.get(i),
                    _ => schema.get("items"),
                };
                if let Some(sub) = sub {
                    fill(root, sub, item, depth + 1, budget);
                }
            }
        }
        _ => {}
    }
}

fn fill_object(
    root: &Value,
    schema: &Map<String, Value>,
    object: &mut Map<String, Value>,
    depth: usize,
    budget: &mut usize,
) {
    let Some(Value::Object(properties)) = schema.get("properties") else {
        return;
    };
    for (name, sub) in properties {
        if !object.contains_key(name)
            && let Some(default) = default_of(root, sub, depth)
        {
            object.insert(name.clone(), default.clone());
        }
        if let Some(value) = object.get_mut(name) {
            fill(root, sub, value, depth + 1, budget);
        }
    }
}

/// The `default` of a schema, looking through a local `$ref`.
fn default_of<'a>(root: &'a Value, schema: &'a Value, depth: usize) -> Option<&'a Value> {
    if depth > MAX_DEFAULT_DEPTH {
        return None;
    }
    schema.get("default").or_else(|| {
        let pointer = schema.get("$ref")?.as_str()?.strip_prefix('#')?;
        default_of(root, root.pointer(pointer)?, depth + 1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fills_nested_defaults_and_refs() {
        let schema = json!({
            "type": "object",
            "$defs": {"port": {"type": "integer", "default": 8080}},
            "properties": {
                "server": {
                    "type": "object",
                    "default": {},
                    "properties": {
                        "host": {"type": "string", "default": "localhost"},
                        "port": {"$ref": "#/$defs/port"}
                    }
                },
                "tags": {"type": "array", "items": {"type": "object", "properties": {"k": {"default": "x"}}}},
                "given": {"type": "string", "default": "unused"}
            }
        });
        let compiled = InputSchema::compile(Some(&schema)).unwrap();
        let filled = compiled
            .check(json!({"tags": [{}, {"k": "y"}], "given": "mine"}))
            .unwrap();
        assert_eq!(
            filled,
            json!({"tags": [{"k": "x"}, {"k": "y"}], "given": "mine",
                   "server": {"host": "localhost", "port": 8080}})
        );
    }

    #[test]
    fn reports_every_violation() {
        let schema = json!({
            "type": "object",
            "properties": {"a": {"type": "number", "minimum": 1}, "b": {"enum": ["x", "y"]}},
            "required": ["c"]
        });
        let compiled = InputSchema::compile(Some(&schema)).unwrap();
        let mut problems = compiled.check(json!({"a": 0, "b": "z"})).unwrap_err();
        problems.sort_by(|x, y| x.pointer.cmp(&y.pointer));
        let pointers: Vec<_> = problems.iter().map(|p| p.pointer.as_str()).collect();
        assert_eq!(pointers, ["", "/a", "/b"]);
        assert!(
            problems[0].message.contains("\"c\" is a required property"),
            "{}",
            problems[0]
        );
    }

    /// Regression (fuzz target `template_loading`): self-references that fan out made default
    /// filling run 2^32 steps; it now stops after `MAX_DEFAULT_VISITS`.
    #[test]
    fn fanned_out_self_references_stay_bounded() {
        let started = std::time::Instant::now();
        let schema = json!({"allOf": [{"$ref": "#"}, {"$ref": "#"}],
                            "properties": {"x": {"default": 1}}});
        let compiled = InputSchema::compile(Some(&schema)).unwrap();
        assert_eq!(compiled.check(json!({})).unwrap(), json!({"x": 1}));
        let schema = json!({"type": "object", "properties": {
            "a": {"$ref": "#", "default": {}}, "b": {"$ref": "#", "default": {}}}});
        let mut filled = json!({});
        fill_defaults(&schema, &schema, &mut filled, 0);
        assert!(
            filled["a"]["a"]["a"].is_object() && filled["b"].is_object(),
            "defaults are filled a few levels deep"
        );
        assert!(
            started.elapsed().as_secs() < 30,
            "took {:?}",
            started.elapsed()
        );
    }

    #[test]
    fn invalid_schema_is_an_error() {
        let err = InputSchema::compile(Some(&json!({"type": "objekt"}))).unwrap_err();
        assert!(err.to_string().contains("objekt"), "{err}");
    }
}
