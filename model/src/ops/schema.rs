//! The OpenAPI 3.1 (JSON Schema 2020-12) schemas of vertices, from the catalog: one component
//! per operation (`LogsFilterVertex`…), `OtherVertex` for the types the catalog does not know,
//! and `Vertex`, a `oneOf` of them told apart by `type` (each operation's schema has its `type`
//! as a `const`, `OtherVertex` every other string). There is no OpenAPI `discriminator`: its
//! mapping cannot name the open set of other types, and tools (Schemathesis) then refuse a
//! vertex of a type the catalog does not know, which the service accepts. The service's document
//! (`jobgraph-server`) adds them to its components; `docs:search` finds each as
//! `schema://<Name>`.

use serde_json::{Map, Value, json};

use super::{Field, OPERATIONS, Operation, Shape};

/// The name of the component that holds any vertex.
pub const VERTEX: &str = "Vertex";
/// The name of the component of a vertex whose type the catalog does not know.
pub const OTHER_VERTEX: &str = "OtherVertex";

/// The component name of an operation's vertex schema: `logs-filter` → `LogsFilterVertex`.
///
/// ```
/// let op = jobgraph_model::ops::find("logs-filter").unwrap();
/// assert_eq!(jobgraph_model::ops::schema::component_name(op), "LogsFilterVertex");
/// ```
pub fn component_name(op: &Operation) -> String {
    let mut name = String::new();
    for part in op.type_name.split('-') {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            name.extend(first.to_uppercase());
            name.push_str(chars.as_str());
        }
    }
    name + "Vertex"
}

/// Every vertex component, by name: one per operation, [`OTHER_VERTEX`] and [`VERTEX`].
///
/// ```
/// let components = jobgraph_model::ops::schema::components();
/// let vertex = &components["Vertex"];
/// assert_eq!(vertex["oneOf"].as_array().unwrap().len(), jobgraph_model::ops::OPERATIONS.len() + 1);
/// assert_eq!(components["LogsFilterVertex"]["properties"]["type"]["const"], "logs-filter");
/// ```
pub fn components() -> Map<String, Value> {
    let mut components = Map::new();
    let mut one_of = Vec::new();
    for op in OPERATIONS {
        let name = component_name(op);
        let reference = format!("#/components/schemas/{name}");
        one_of.push(json!({"$ref": reference}));
        components.insert(name, vertex_schema(op));
    }
    let known: Vec<&str> = OPERATIONS.iter().map(|op| op.type_name).collect();
    components.insert(
        OTHER_VERTEX.into(),
        json!({
            "type": "object",
            "description": "A vertex of a type the catalog does not know: kept as it is, passed through, and named as not simulated when the graph runs.",
            "required": ["type", "name"],
            "properties": {
                "type": {"type": "string", "minLength": 1, "not": {"enum": known}},
                "name": name_schema(),
            },
            "additionalProperties": true,
        }),
    );
    let reference = format!("#/components/schemas/{OTHER_VERTEX}");
    one_of.push(json!({"$ref": reference}));
    components.insert(
        VERTEX.into(),
        json!({
            "description": "A vertex: `type`, a `name` unique in the graph, and the type's fields (the catalog of operations, docs/pipeline.md). A `template-operation` names a `templateId` of the caller's organization.",
            "oneOf": one_of,
        }),
    );
    components
}

/// The name of a vertex: no white space or `:`.
fn name_schema() -> Value {
    json!({"type": "string", "pattern": "^[^\\s:]+$", "description": "Unique in the graph; no white space or `:`."})
}

/// The schema of one operation's vertex.
pub fn vertex_schema(op: &Operation) -> Value {
    let Shape::Object(fields) = (op.config)() else {
        return json!({"type": "object"});
    };
    let mut schema = object_schema(&fields);
    let properties = schema["properties"].as_object_mut().map(std::mem::take);
    let mut all = Map::new();
    all.insert("type".into(), json!({"const": op.type_name}));
    all.insert("name".into(), name_schema());
    all.extend(properties.unwrap_or_default());
    schema["properties"] = Value::Object(all);
    let mut required = vec![json!("type"), json!("name")];
    required.extend(schema["required"].as_array().cloned().unwrap_or_default());
    schema["required"] = Value::Array(required);
    schema["title"] = Value::String(op.type_name.into());
    schema["description"] = Value::String(format!(
        "{} ({}{}{})",
        op.summary,
        op.role.as_str(),
        match op.predicate {
            super::PredicateUse::None => "",
            super::PredicateUse::Optional => "; an optional `predicate`",
            super::PredicateUse::Required => "; a required `predicate` (or `query`)",
        },
        if op.outputs.is_empty() {
            String::new()
        } else {
            format!(
                "; outputs besides the default: `{}`",
                op.outputs.join("`, `")
            )
        }
    ));
    schema["additionalProperties"] = Value::Bool(true);
    if let Ok(example) = serde_json::from_str::<Value>(op.example) {
        schema["examples"] = json!([example]);
    }
    schema
}

fn object_schema(fields: &[Field]) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for field in fields {
        let mut schema = shape_schema(&field.shape);
        if let Some(object) = schema.as_object_mut() {
            let bound = |key_number: &str, key_items: &str, key_length: &str| match field.shape {
                Shape::Integer | Shape::Number => key_number.to_owned(),
                Shape::Array(_) => key_items.to_owned(),
                _ => key_length.to_owned(),
            };
            if let Some(min) = field.extra.min {
                object.insert(bound("minimum", "minItems", "minLength"), number(min));
            }
            if let Some(max) = field.extra.max {
                object.insert(bound("maximum", "maxItems", "maxLength"), number(max));
            }
            // The format (`date-time`, `duration`) is said in words, not as the `format`
            // keyword: validation checks the JSON type, and the engine reads the value when it
            // runs the type, so the document promises no more than validation holds.
            let mut doc = field.doc.clone();
            if let Some(format) = field.extra.format {
                let words = match format {
                    "date-time" => "An ISO 8601 time.",
                    "duration" => "An ISO 8601 duration (`PT2M`).",
                    other => other,
                };
                doc = format!("{doc} {words}").trim().to_owned();
            }
            match field
                .extra
                .default
                .map(|d| (d, serde_json::from_str::<Value>(d)))
            {
                // An object default is said in the description only: client generators
                // (openapi-python-client) refuse a default on a property that is a model.
                Some((text, Ok(Value::Object(_)))) => {
                    doc = format!("{doc} Default: `{text}`.").trim().to_owned();
                }
                Some((_, Ok(default))) => {
                    object.insert("default".into(), default);
                }
                _ => {}
            }
            if !doc.is_empty() {
                object.insert("description".into(), Value::String(doc));
            }
        }
        if field.extra.required {
            required.push(Value::String(field.name.into()));
        }
        properties.insert(field.name.into(), schema);
    }
    let mut schema =
        json!({"type": "object", "properties": properties, "additionalProperties": true});
    if !required.is_empty() {
        schema["required"] = Value::Array(required);
    }
    schema
}

/// A bound as an integer when it is one.
fn number(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() < 9.0e15 {
        json!(n as i64)
    } else {
        json!(n)
    }
}

fn shape_schema(shape: &Shape) -> Value {
    match shape {
        Shape::Any => json!({}),
        Shape::String => json!({"type": "string"}),
        Shape::Boolean => json!({"type": "boolean"}),
        Shape::Integer => json!({"type": "integer"}),
        Shape::Number => json!({"type": "number"}),
        Shape::Enum(values) => json!({"type": "string", "enum": values}),
        Shape::Array(item) => json!({"type": "array", "items": shape_schema(item)}),
        Shape::Map(item) => json!({"type": "object", "additionalProperties": shape_schema(item)}),
        Shape::Object(fields) => object_schema(fields),
        Shape::Tagged { variants, .. } => {
            let tags: Vec<&str> = variants.iter().map(|(tag, _)| *tag).collect();
            let mut any_of: Vec<Value> = variants
                .iter()
                .map(|(tag, shape)| {
                    let mut schema = shape_schema(shape);
                    schema["properties"]["type"] = json!({"const": tag});
                    let mut required = vec![json!("type")];
                    required.extend(
                        schema["required"]
                            .as_array()
                            .into_iter()
                            .flatten()
                            .filter(|r| *r != "type")
                            .cloned(),
                    );
                    schema["required"] = Value::Array(required);
                    schema
                })
                .collect();
            any_of.push(json!({
                "type": "object",
                "required": ["type"],
                "properties": {"type": {"type": "string", "not": {"enum": tags}}},
                "additionalProperties": true,
            }));
            json!({"oneOf": any_of})
        }
        Shape::Predicate => json!({
            "type": "object",
            "required": ["type"],
            "properties": {"type": {"type": "string", "description": "`datadog-query` (`query`), `and-predicate` (`queries`), `message-length` (`minLength`, `maxLength`)."}},
            "additionalProperties": true,
            "description": "A predicate (docs/pipeline.md, \"Predicates\")."
        }),
        Shape::GrokRules => json!({
            "oneOf": [
                {"type": "array", "items": {"type": "string"}, "description": "One `RuleName pattern` per item."},
                {"type": "string", "description": "One rule per line."}
            ]
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operation_has_a_component_in_the_one_of() {
        let components = components();
        let one_of = components[VERTEX]["oneOf"].as_array().unwrap();
        assert_eq!(one_of.len(), OPERATIONS.len() + 1);
        for op in OPERATIONS {
            let name = component_name(op);
            let reference = json!({"$ref": format!("#/components/schemas/{name}")});
            assert!(one_of.contains(&reference), "{name}");
            let schema = &components[&name];
            assert_eq!(schema["properties"]["type"]["const"], op.type_name);
            assert_eq!(schema["required"][0], "type");
        }
        let bounds = &components["LogsIcebergTableSourceVertex"]["properties"]["limit"];
        assert_eq!(bounds["minimum"], 1);
        assert_eq!(bounds["type"], "integer");
    }
}
