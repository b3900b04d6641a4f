//! `default` filling: absent inputs take their schema's `default`, before validation.

use serde_json::{Map, Value};

/// How deep default filling follows nested schemas and `$ref`s before it stops.
const MAX_DEFAULT_DEPTH: usize = 64;

/// How many (sub)schema applications one default filling may make. The depth limit alone does
/// not bound the work: `allOf: [{$ref: "#"}, {$ref: "#"}]` doubles it at every level (found by
/// the `template_loading` fuzz target), and so do two properties whose defaults recurse.
const MAX_DEFAULT_VISITS: usize = 100_000;

/// `prefixItems`, `allOf` and local `$ref`s. Present values are never changed.
/// Stops after 100 000 schema applications (`allOf` of self-references doubles the work at
/// every level).
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
