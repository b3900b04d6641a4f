//! Checking request bodies field by field, so that a 400 names the field.

use indexmap::IndexMap;
use jobgraph_core::{DraftOutput, Endpoint, InputSchema, TestInput, TestRequest};
use serde_json::{Map, Value};

use crate::error::ApiError;
use crate::store::TemplateFields;

fn bad(message: String) -> ApiError {
    ApiError::BadRequest(message)
}

/// The body as a JSON object.
pub fn object<'a>(value: &'a Value, what: &str) -> Result<&'a Map<String, Value>, ApiError> {
    value
        .as_object()
        .ok_or_else(|| bad(format!("{what} must be a JSON object")))
}

/// An optional string field (`null` = absent).
pub fn optional_string(
    map: &Map<String, Value>,
    prefix: &str,
    name: &str,
) -> Result<Option<String>, ApiError> {
    match map.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(bad(format!("`{prefix}{name}` must be a string"))),
    }
}

/// A required, non-empty string field.
pub fn required_string(
    map: &Map<String, Value>,
    prefix: &str,
    name: &str,
) -> Result<String, ApiError> {
    match optional_string(map, prefix, name)? {
        Some(s) if !s.is_empty() => Ok(s),
        Some(_) => Err(bad(format!("`{prefix}{name}` must not be empty"))),
        None => Err(bad(format!("`{prefix}{name}` is required"))),
    }
}

/// An optional boolean field.
pub fn optional_bool(
    map: &Map<String, Value>,
    prefix: &str,
    name: &str,
) -> Result<Option<bool>, ApiError> {
    match map.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(_) => Err(bad(format!("`{prefix}{name}` must be true or false"))),
    }
}

/// An optional positive integer field.
pub fn optional_version(
    map: &Map<String, Value>,
    prefix: &str,
    name: &str,
) -> Result<Option<u64>, ApiError> {
    match map.get(name) {
        None | Some(Value::Null) => Ok(None),
        // An integer written as a float (`3.0`, `4e18`) is an integer, as JSON Schema says;
        // up to 2^63 (the documents' int64), past which no version is stored.
        Some(v) => v
            .as_u64()
            .or_else(|| {
                v.as_f64()
                    .filter(|f| f.fract() == 0.0 && *f >= 1.0 && *f <= i64::MAX as f64)
                    .map(|f| f as u64)
            })
            .filter(|n| *n > 0)
            .map(Some)
            .ok_or_else(|| bad(format!("`{prefix}{name}` must be a positive integer"))),
    }
}

/// One of `allowed`.
pub fn one_of(value: String, allowed: &[&str], field: &str) -> Result<String, ApiError> {
    if allowed.contains(&value.as_str()) {
        Ok(value)
    } else {
        Err(bad(format!(
            "`{field}` must be one of {}, not {value:?}",
            allowed.join(", ")
        )))
    }
}

/// A map of strings (`tags`).
pub fn string_map(
    map: &Map<String, Value>,
    name: &str,
) -> Result<Option<Map<String, Value>>, ApiError> {
    match map.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(tags)) => {
            if let Some((key, _)) = tags.iter().find(|(_, v)| !v.is_string()) {
                return Err(bad(format!("`{name}.{key}` must be a string")));
            }
            Ok(Some(tags.clone()))
        }
        Some(_) => Err(bad(format!("`{name}` must be an object of strings"))),
    }
}

/// `teamIds`: absent or null (`None`), or an array of at most 32 distinct team ids, each 1 to
/// 128 characters; kept sorted.
pub fn team_ids(map: &Map<String, Value>, name: &str) -> Result<Option<Vec<String>>, ApiError> {
    let items = match map.get(name) {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Array(items)) => items,
        Some(_) => return Err(bad(format!("`{name}` must be an array of team ids"))),
    };
    if items.len() > 32 {
        return Err(bad(format!(
            "`{name}` has {} teams; a resource belongs to at most 32",
            items.len()
        )));
    }
    let mut ids = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let id = item
            .as_str()
            .filter(|s| !s.trim().is_empty() && s.chars().count() <= 128)
            .ok_or_else(|| {
                bad(format!(
                    "`{name}/{i}` must be a team id: a string of 1 to 128 characters"
                ))
            })?;
        ids.push(id.to_owned());
    }
    ids.sort();
    ids.dedup();
    Ok(Some(ids))
}

fn port_map(
    map: &Map<String, Value>,
    prefix: &str,
    name: &str,
) -> Result<IndexMap<String, String>, ApiError> {
    let mut out = IndexMap::new();
    match map.get(name) {
        None | Some(Value::Null) => {}
        Some(Value::Object(entries)) => {
            for (key, value) in entries {
                let field = format!("{prefix}{name}.{key}");
                let text = value
                    .as_str()
                    .ok_or_else(|| bad(format!("`{field}` must be a string `vertex[:port]`")))?;
                let form = |reason: &str| {
                    bad(format!(
                        "`{field}` must be of the form `vertex[:port]`: {reason}"
                    ))
                };
                if text.chars().any(char::is_whitespace) {
                    return Err(form("names contain no white space"));
                }
                text.parse::<Endpoint>().map_err(|e| form(&e.reason))?;
                out.insert(key.clone(), text.to_owned());
            }
        }
        Some(_) => {
            return Err(bad(format!(
                "`{prefix}{name}` must be an object of `vertex[:port]` strings"
            )));
        }
    }
    Ok(out)
}

fn draft_outputs(map: &Map<String, Value>, prefix: &str) -> Result<Vec<DraftOutput>, ApiError> {
    let field = format!("{prefix}draftOutputs");
    let items = match map.get("draftOutputs") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(items)) => items,
        Some(_) => return Err(bad(format!("`{field}` must be an array"))),
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let at = format!("{field}[{i}].");
            let item = item
                .as_object()
                .ok_or_else(|| bad(format!("`{field}[{i}]` must be an object")))?;
            let vertex = required_string(item, &at, "vertex")?;
            if !jobgraph_core::edge::is_valid_vertex_name(&vertex) {
                return Err(bad(format!(
                    "`{at}vertex` must be a vertex name (no `:` or spaces)"
                )));
            }
            Ok(DraftOutput {
                name: required_string(item, &at, "name")?,
                description: optional_string(item, &at, "description")?.unwrap_or_default(),
                vertex,
            })
        })
        .collect()
}

/// The fields of a template, checked: `name` (when `require_name`) and `template` non-empty
/// strings, `inputSchema` a valid JSON Schema of an object, `inputs`/`outputs` maps of
/// `vertex[:port]`, `draftOutputs` items with `name` and `vertex`. Other fields (`id`,
/// `version`, `organizationId`, …) are ignored. `prefix` is put before field names in messages.
pub fn template_fields(
    value: &Value,
    prefix: &str,
    require_name: bool,
) -> Result<TemplateFields, ApiError> {
    let what = if prefix.is_empty() {
        "the body".to_owned()
    } else {
        format!("`{}`", prefix.trim_end_matches('.'))
    };
    let map = object(value, &what)?;
    let name = if require_name {
        required_string(map, prefix, "name")?
    } else {
        optional_string(map, prefix, "name")?.unwrap_or_default()
    };
    let input_schema = match map.get("inputSchema") {
        None | Some(Value::Null) => None,
        Some(schema @ Value::Object(s)) => {
            if s.get("type").is_some_and(|t| t != "object") {
                return Err(bad(format!(
                    "`{prefix}inputSchema` must describe an object (`\"type\": \"object\"`)"
                )));
            }
            InputSchema::compile(Some(schema)).map_err(|e| {
                bad(format!(
                    "`{prefix}inputSchema` is not a valid JSON Schema: {e}"
                ))
            })?;
            Some(schema.clone())
        }
        Some(_) => return Err(bad(format!("`{prefix}inputSchema` must be an object"))),
    };
    Ok(TemplateFields {
        name,
        description: optional_string(map, prefix, "description")?,
        input_schema,
        template: required_string(map, prefix, "template")?,
        inputs: port_map(map, prefix, "inputs")?,
        outputs: port_map(map, prefix, "outputs")?,
        draft_outputs: draft_outputs(map, prefix)?,
    })
}

/// The body of `POST /v1/templates/test`, checked.
pub fn test_request(body: &Value) -> Result<TestRequest, ApiError> {
    let map = object(body, "the body")?;
    let template = map
        .get("template")
        .ok_or_else(|| bad("`template` is required: the template to test".into()))?;
    let fields = template_fields(template, "template.", false)?;
    let (is_draft, values) = match map.get("input") {
        None | Some(Value::Null) => (false, Map::new()),
        Some(Value::Object(input)) => {
            let draft = optional_bool(input, "input.", "isDraft")?
                .or(optional_bool(input, "input.", "draft")?)
                .unwrap_or(false);
            let values = match input.get("values") {
                None | Some(Value::Null) => Map::new(),
                Some(Value::Object(values)) => values.clone(),
                Some(_) => return Err(bad("`input.values` must be an object".into())),
            };
            (draft, values)
        }
        Some(_) => return Err(bad("`input` must be an object".into())),
    };
    let check = optional_bool(map, "", "checkValidJobGraph")?
        .or(optional_bool(map, "", "checkValidGreprJobGraph")?)
        .unwrap_or(false);
    Ok(TestRequest {
        template: jobgraph_core::Template {
            name: fields.name,
            description: fields.description,
            input_schema: fields.input_schema,
            template: fields.template,
            inputs: fields.inputs,
            outputs: fields.outputs,
            draft_outputs: fields.draft_outputs,
            ..Default::default()
        },
        input: TestInput { is_draft, values },
        check_valid_job_graph: check,
    })
}

/// A `jobGraph` field: an object with `vertices` (array) and `edges` (array, optional).
pub fn job_graph(value: &Value, field: &str) -> Result<Value, ApiError> {
    let map = object(value, &format!("`{field}`"))?;
    if !map.get("vertices").is_some_and(Value::is_array) {
        return Err(bad(format!("`{field}.vertices` must be an array")));
    }
    if map.get("edges").is_some_and(|e| !e.is_array()) {
        return Err(bad(format!("`{field}.edges` must be an array")));
    }
    Ok(value.clone())
}

/// A request body checked against the schema the OpenAPI document publishes for it, compiled
/// once: the document and the checks are one definition. A refusal names the field's JSON
/// pointer, what is wrong and the field's rule (its `description` in the schema); an unknown
/// field is named with the known ones; a missing required one with its rule.
pub struct BodySchema {
    /// What the body is, for messages (`dataset`).
    what: &'static str,
    schema: Value,
    compiled: InputSchema,
}

/// Longest excerpt of a validator message (it quotes the offending value, which may be large).
const MAX_MESSAGE: usize = 300;

impl BodySchema {
    /// Compiles the published schema of a body (`T::schema()` of a `utoipa::ToSchema` type).
    pub fn new(
        what: &'static str,
        schema: utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
    ) -> Result<BodySchema, String> {
        let schema = serde_json::to_value(schema).map_err(|e| e.to_string())?;
        let compiled = InputSchema::compile(Some(&schema))
            .map_err(|e| format!("the {what} schema does not compile: {e}"))?;
        Ok(BodySchema {
            what,
            schema,
            compiled,
        })
    }

    /// The rule of a top-level property, from its description (empty when none).
    fn rule(&self, pointer: &str) -> String {
        let field = pointer
            .trim_start_matches('/')
            .split('/')
            .next()
            .unwrap_or("");
        match self.schema["properties"][field]["description"].as_str() {
            Some(text) if !field.is_empty() => format!(" ({field}: {text})"),
            _ => String::new(),
        }
    }

    /// A 400 naming every field of `body` that breaks the schema; `Ok` when it is valid.
    pub fn check(&self, body: &Value) -> Result<(), ApiError> {
        let what = self.what;
        let map = object(body, "the body")?;
        let properties = self.schema["properties"].as_object();
        let known = |key: &str| properties.is_some_and(|p| p.contains_key(key));
        if self.schema["additionalProperties"] == Value::Bool(false)
            && let Some(key) = map.keys().find(|k| !known(k))
        {
            let writable: Vec<&str> = properties
                .into_iter()
                .flatten()
                .filter(|(_, s)| s["readOnly"] != Value::Bool(true))
                .map(|(k, _)| k.as_str())
                .collect();
            return Err(bad(format!(
                "`/{key}` is not a {what} field (known: {})",
                writable.join(", ")
            )));
        }
        for required in self.schema["required"].as_array().into_iter().flatten() {
            if let Some(key) = required.as_str()
                && map.get(key).is_none_or(Value::is_null)
            {
                let pointer = format!("/{key}");
                return Err(bad(format!(
                    "`{pointer}` is required{}",
                    self.rule(&pointer)
                )));
            }
        }
        let problems = self.compiled.problems(body);
        if problems.is_empty() {
            return Ok(());
        }
        let described: Vec<String> = problems
            .iter()
            .map(|p| {
                let (pointer, message) = if p.message.ends_with("has non-unique elements") {
                    repeated_item(body, &p.pointer)
                        .unwrap_or_else(|| (p.pointer.clone(), p.message.clone()))
                } else {
                    (p.pointer.clone(), p.message.clone())
                };
                format!("`{pointer}`: {}{}", excerpt(&message), self.rule(&pointer))
            })
            .collect();
        Err(bad(format!(
            "the body is not a valid {what}: {}",
            described.join("; ")
        )))
    }
}

/// For an array with repeated items: the pointer of the first item that repeats an earlier
/// one, and which.
fn repeated_item(body: &Value, pointer: &str) -> Option<(String, String)> {
    let items = body.pointer(pointer)?.as_array()?;
    (1..items.len()).find_map(|i| {
        let first = items[..i].iter().position(|item| *item == items[i])?;
        Some((
            format!("{pointer}/{i}"),
            format!("{} repeats item {first}: list each once", items[i]),
        ))
    })
}

/// At most [`MAX_MESSAGE`] characters of `text`, with `…` when cut.
fn excerpt(text: &str) -> String {
    match text.char_indices().nth(MAX_MESSAGE) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}
