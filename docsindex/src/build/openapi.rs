//! An OpenAPI 3.1 document rendered as Markdown: one page per operation (method, path,
//! summary, description, parameters, request body, responses) and one per component schema
//! (description, type, properties with their types and descriptions).

use serde_json::{Map, Value};

use crate::index::Kind;

const METHODS: &[&str] = &["get", "put", "post", "delete", "patch", "head", "options"];

/// Every operation (`api://<operationId>`) and component schema (`schema://<Name>`) of
/// `document`, as (URI, kind, Markdown), in the document's order.
pub fn render(document: &Value) -> Vec<(String, Kind, String)> {
    let mut pages = Vec::new();
    let empty = Map::new();
    let paths = document["paths"].as_object().unwrap_or(&empty);
    for (path, item) in paths {
        for method in METHODS {
            if let Some(op) = item.get(*method).and_then(Value::as_object) {
                let id = op.get("operationId").and_then(Value::as_str).map_or_else(
                    || format!("{method}{}", path.replace('/', "_")),
                    str::to_owned,
                );
                pages.push((
                    format!("api://{id}"),
                    Kind::Api,
                    operation(&id, method, path, op),
                ));
            }
        }
    }
    let schemas = document["components"]["schemas"]
        .as_object()
        .unwrap_or(&empty);
    for (name, schema) in schemas {
        pages.push((
            format!("schema://{name}"),
            Kind::Schema,
            schema_page(name, schema),
        ));
    }
    pages
}

fn operation(id: &str, method: &str, path: &str, op: &Map<String, Value>) -> String {
    let mut md = format!("# {id}: {} {path}\n\n", method.to_uppercase());
    for key in ["summary", "description"] {
        if let Some(text) = op.get(key).and_then(Value::as_str) {
            md.push_str(text.trim());
            md.push_str("\n\n");
        }
    }
    if let Some(tags) = op.get("tags").and_then(Value::as_array) {
        let tags: Vec<&str> = tags.iter().filter_map(Value::as_str).collect();
        md.push_str(&format!("Tags: {}\n\n", tags.join(", ")));
    }
    if let Some(params) = op
        .get("parameters")
        .and_then(Value::as_array)
        .filter(|p| !p.is_empty())
    {
        md.push_str("## Parameters\n\n| Name | In | Type | Required | Description |\n|---|---|---|---|---|\n");
        for p in params {
            md.push_str(&format!(
                "| `{}` | {} | {} | {} | {} |\n",
                text(&p["name"]),
                text(&p["in"]),
                cell(&type_of(&p["schema"])),
                if p["required"].as_bool() == Some(true) {
                    "yes"
                } else {
                    "no"
                },
                cell(&text(&p["description"])),
            ));
        }
        md.push('\n');
    }
    if let Some(body) = op.get("requestBody").and_then(Value::as_object) {
        md.push_str("## Request body\n\n");
        if let Some(d) = body.get("description").and_then(Value::as_str) {
            md.push_str(d.trim());
            md.push_str("\n\n");
        }
        let required = body.get("required").and_then(Value::as_bool) == Some(true);
        md.push_str(if required {
            "Required.\n\n"
        } else {
            "Optional.\n\n"
        });
        content(&mut md, body.get("content"));
    }
    if let Some(responses) = op.get("responses").and_then(Value::as_object) {
        md.push_str("## Responses\n\n| Status | Description | Body |\n|---|---|---|\n");
        for (status, response) in responses {
            let bodies: Vec<String> = response["content"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(media, c)| format!("`{media}`: {}", type_of(&c["schema"])))
                .collect();
            md.push_str(&format!(
                "| {status} | {} | {} |\n",
                cell(&text(&response["description"])),
                cell(&bodies.join("; ")),
            ));
        }
        md.push('\n');
    }
    md
}

fn content(md: &mut String, content: Option<&Value>) {
    for (media, c) in content.and_then(Value::as_object).into_iter().flatten() {
        md.push_str(&format!("- `{media}`: {}\n", type_of(&c["schema"])));
    }
    md.push('\n');
}

fn schema_page(name: &str, schema: &Value) -> String {
    let mut md = format!("# {name}\n\n");
    if let Some(d) = schema["description"].as_str() {
        md.push_str(d.trim());
        md.push_str("\n\n");
    }
    md.push_str(&format!("Type: {}\n\n", type_of(schema)));
    if let Some(props) = schema["properties"].as_object() {
        let required: Vec<&str> = schema["required"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        md.push_str(
            "## Properties\n\n| Name | Type | Required | Description |\n|---|---|---|---|\n",
        );
        for (prop, s) in props {
            md.push_str(&format!(
                "| `{prop}` | {} | {} | {} |\n",
                cell(&type_of(s)),
                if required.contains(&prop.as_str()) {
                    "yes"
                } else {
                    "no"
                },
                cell(&text(&s["description"])),
            ));
        }
        md.push('\n');
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(variants) = schema[key].as_array() {
            md.push_str("## Variants\n\n");
            for v in variants {
                let d = text(&v["description"]);
                md.push_str(&format!(
                    "- {}{}\n",
                    type_of(v),
                    if d.is_empty() {
                        String::new()
                    } else {
                        format!(": {d}")
                    }
                ));
            }
            md.push('\n');
        }
    }
    md
}

/// A schema's type in one line: `string (date-time)`, `Job[]`, `"a" | "b"`, `map of string`.
fn type_of(schema: &Value) -> String {
    if let Some(r) = schema["$ref"].as_str() {
        return format!("`{}`", r.rsplit('/').next().unwrap_or(r));
    }
    if let Some(values) = schema["enum"].as_array() {
        let values: Vec<String> = values.iter().map(Value::to_string).collect();
        return values.join(" | ");
    }
    for (key, join) in [("oneOf", " | "), ("anyOf", " | "), ("allOf", " & ")] {
        if let Some(list) = schema[key].as_array() {
            let parts: Vec<String> = list.iter().map(type_of).collect();
            return parts.join(join);
        }
    }
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if types.is_empty() {
        return if schema.get("properties").is_some() {
            "object".into()
        } else {
            "any".into()
        };
    }
    let rendered: Vec<String> = types
        .into_iter()
        .map(|t| match t {
            "array" => format!("{}[]", type_of(&schema["items"])),
            "object" if schema["additionalProperties"].is_object() => {
                format!("map of {}", type_of(&schema["additionalProperties"]))
            }
            _ => match schema["format"].as_str() {
                Some(f) => format!("{t} ({f})"),
                None => t.to_owned(),
            },
        })
        .collect();
    rendered.join(" | ")
}

fn text(value: &Value) -> String {
    value.as_str().map(str::trim).unwrap_or_default().to_owned()
}

/// A table cell: one line, `|` escaped.
fn cell(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::render;

    #[test]
    fn renders_operations_and_schemas() {
        let doc = json!({
            "paths": {"/oauth/token": {"post": {
                "operationId": "issueToken", "summary": "Issue a token", "tags": ["auth"],
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/TokenRequest"}}}},
                "responses": {"200": {"description": "The token", "content": {"application/json": {"schema": {"type": "object"}}}}}
            }}},
            "components": {"schemas": {"TokenRequest": {
                "type": "object", "required": ["client_id"],
                "properties": {"client_id": {"type": "string", "description": "The client"}, "scopes": {"type": ["array", "null"], "items": {"type": "string"}}}
            }}}
        });
        let pages = render(&doc);
        assert_eq!(pages[0].0, "api://issueToken");
        assert!(
            pages[0]
                .2
                .starts_with("# issueToken: POST /oauth/token\n\nIssue a token")
        );
        assert!(pages[0].2.contains("- `application/json`: `TokenRequest`"));
        assert!(
            pages[0]
                .2
                .contains("| 200 | The token | `application/json`: object |")
        );
        assert_eq!(pages[1].0, "schema://TokenRequest");
        assert!(
            pages[1]
                .2
                .contains("| `client_id` | string | yes | The client |")
        );
        assert!(
            pages[1]
                .2
                .contains("| `scopes` | string[] \\| null | no |  |")
        );
    }
}
