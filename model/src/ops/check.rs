//! Validation of a vertex's fields against its operation's configuration shape: each problem
//! with the JSON pointer of the field (`/vertices/2/transforms/0/order`) and a message that
//! says what was expected and what was found.

use serde_json::{Map, Value};

use super::shape::{Extra, Field, Shape};
use super::{Operation, PredicateUse};
use crate::json::kind_of;

/// Checks the fields of a vertex of a known operation, reporting `(pointer, message)` for
/// each problem. `at` is the vertex's pointer (`/vertices/3`). The predicate's inside is the
/// engine's to check; a missing required predicate is reported by [`check_predicate_present`].
///
/// ```
/// use jobgraph_model::ops;
/// let vertex = serde_json::json!({"type": "logs-iceberg-table-source", "name": "s", "limit": 0});
/// let mut problems = Vec::new();
/// let op = ops::find("logs-iceberg-table-source").unwrap();
/// ops::check_config(op, vertex.as_object().unwrap(), "/vertices/0", &mut |p, m| problems.push((p, m)));
/// assert_eq!(problems, [("/vertices/0/limit".to_owned(),
///     "must be an integer of at least 1, found a number".to_owned())]);
/// ```
pub fn check_config(
    op: &Operation,
    fields: &Map<String, Value>,
    at: &str,
    report: &mut dyn FnMut(String, String),
) {
    let Shape::Object(config) = (op.config)() else {
        return;
    };
    check_fields(&config, fields, at, op.type_name, true, report);
}

/// Reports a required predicate that is absent (neither `predicate` nor `query`).
pub fn check_predicate_present(
    op: &Operation,
    fields: &Map<String, Value>,
    at: &str,
    report: &mut dyn FnMut(String, String),
) {
    let present = |name: &str| fields.get(name).is_some_and(|v| !v.is_null());
    if op.predicate == PredicateUse::Required && !present("predicate") && !present("query") {
        report(
            format!("{at}/query"),
            format!(
                "`query` is required for type {:?} (or `predicate`, the public service's name): the events it matches, e.g. {{\"type\": \"datadog-query\", \"query\": \"level:error\"}}",
                op.type_name
            ),
        );
    }
}

/// `vertex`: these are a vertex's own fields, whose predicate (`predicate`, `query`) the engine
/// checks inside (`jobgraph_core::validate_job_graph`); any other predicate (a sampler's
/// `filter`, one nested deeper) is checked here for its shape.
fn check_fields(
    config: &[Field],
    fields: &Map<String, Value>,
    at: &str,
    type_name: &str,
    vertex: bool,
    report: &mut dyn FnMut(String, String),
) {
    for field in config {
        if vertex && field.extra.predicate && matches!(field.name, "predicate" | "query") {
            continue;
        }
        match fields.get(field.name) {
            None if field.extra.required => report(
                format!("{at}/{}", field.name),
                format!(
                    "`{}` is required for type {type_name:?} and must be {}",
                    field.name,
                    expected(&field.shape, &field.extra)
                ),
            ),
            None => {}
            Some(value) => check_value(
                &field.shape,
                &field.extra,
                value,
                &format!("{at}/{}", pointer_token(field.name)),
                report,
            ),
        }
    }
}

/// What validation says a field must be, with its bounds: "an integer of at least 1".
pub fn expected(shape: &Shape, extra: &Extra) -> String {
    let base = match (shape, extra.format) {
        (Shape::String, Some("date-time")) => "an ISO 8601 time (a string)".to_owned(),
        (Shape::String, Some("duration")) => "an ISO 8601 duration (a string, `PT2M`)".to_owned(),
        _ => shape.expected(),
    };
    let unit = match shape {
        Shape::Integer | Shape::Number => "",
        Shape::Array(_) => " items",
        Shape::String => " characters",
        _ => return base,
    };
    let show = |n: f64| format!("{n}");
    let unit = if unit.ends_with('s') && (extra.max.or(extra.min) == Some(1.0)) {
        unit.trim_end_matches('s')
    } else {
        unit
    };
    match (extra.min, extra.max) {
        (Some(min), None) if min == 0.0 && unit.is_empty() => format!("{base} of at least 0"),
        (Some(min), None) if unit.is_empty() => format!("{base} of at least {}", show(min)),
        (None, Some(max)) if unit.is_empty() => format!("{base} of at most {}", show(max)),
        (Some(min), Some(max)) if unit.is_empty() => {
            format!("{base} from {} to {}", show(min), show(max))
        }
        (Some(min), None) => format!("{base} with at least {}{unit}", show(min)),
        (None, Some(max)) => format!("{base} with at most {}{unit}", show(max)),
        (Some(min), Some(max)) => format!("{base} with {} to {}{unit}", show(min), show(max)),
        (None, None) => base,
    }
}

fn check_value(
    shape: &Shape,
    extra: &Extra,
    value: &Value,
    at: &str,
    report: &mut dyn FnMut(String, String),
) {
    let wrong = |report: &mut dyn FnMut(String, String)| {
        report(
            at.to_owned(),
            format!(
                "must be {}, found {}",
                expected(shape, extra),
                kind_of(value)
            ),
        )
    };
    let within =
        |n: f64| extra.min.is_none_or(|min| n >= min) && extra.max.is_none_or(|max| n <= max);
    match shape {
        Shape::Any => {}
        Shape::Predicate => match value.as_object() {
            Some(map) if map.get("type").is_some_and(Value::is_string) => {}
            Some(_) => report(
                format!("{at}/type"),
                "a predicate's `type` is required and must be a string, e.g. \"datadog-query\""
                    .into(),
            ),
            None => wrong(report),
        },
        Shape::String => match value.as_str() {
            Some(s) if within(s.chars().count() as f64) => {}
            _ => wrong(report),
        },
        Shape::Boolean if value.is_boolean() => {}
        Shape::Integer
            if (value.is_i64() || value.is_u64()) && value.as_f64().is_some_and(within) => {}
        Shape::Number if value.as_f64().is_some_and(within) => {}
        Shape::Enum(values) if value.as_str().is_some_and(|s| values.contains(&s)) => {}
        Shape::GrokRules if crate::GrokRules::is_shape(value) => {}
        Shape::Array(item) => match value.as_array() {
            Some(items) if within(items.len() as f64) => {
                for (i, v) in items.iter().enumerate() {
                    check_value(item, &Extra::new(), v, &format!("{at}/{i}"), report);
                }
            }
            _ => wrong(report),
        },
        Shape::Map(item) => match value.as_object() {
            Some(map) => {
                for (k, v) in map {
                    check_value(
                        item,
                        &Extra::new(),
                        v,
                        &format!("{at}/{}", pointer_token(k)),
                        report,
                    );
                }
            }
            None => wrong(report),
        },
        Shape::Object(fields) => match value.as_object() {
            Some(map) => check_fields(fields, map, at, "object", false, report),
            None => wrong(report),
        },
        Shape::Tagged { noun, variants } => match value.as_object() {
            Some(map) => {
                let tag = map.get("type").and_then(Value::as_str);
                if tag.is_none() {
                    let tags: Vec<String> =
                        variants.iter().map(|(t, _)| format!("{t:?}")).collect();
                    report(
                        format!("{at}/type"),
                        format!(
                            "`type` is required for {noun} and must be a string: {}, or another type (kept as it is)",
                            tags.join(", ")
                        ),
                    );
                }
                if let Some((name, Shape::Object(fields))) =
                    variants.iter().find(|(name, _)| Some(*name) == tag)
                {
                    check_fields(fields, map, at, name, false, report);
                }
            }
            None => report(
                at.to_owned(),
                format!("{noun} must be an object, found {}", kind_of(value)),
            ),
        },
        _ => wrong(report),
    }
}

/// A key as a JSON pointer token (`~` → `~0`, `/` → `~1`).
fn pointer_token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// The fields of a known operation's vertex that its configuration does not name (besides
/// `type`, `name` and the predicate's `query`/`predicate`): kept as they are, and reported as
/// warnings so that a misspelt field does not go unnoticed (`docs/pipeline.md`, "Unknown
/// fields").
///
/// ```
/// let vertex = serde_json::json!({"type": "logs-filter", "name": "f", "query": "*", "invertd": true});
/// let op = jobgraph_model::ops::find("logs-filter").unwrap();
/// let unknown = jobgraph_model::ops::unknown_fields(op, vertex.as_object().unwrap());
/// assert_eq!(unknown, ["invertd"]);
/// ```
pub fn unknown_fields<'a>(op: &Operation, fields: &'a Map<String, Value>) -> Vec<&'a str> {
    let Shape::Object(config) = (op.config)() else {
        return Vec::new();
    };
    fields
        .keys()
        .map(String::as_str)
        .filter(|key| !matches!(*key, "type" | "name"))
        .filter(|key| op.predicate == PredicateUse::None || !matches!(*key, "query" | "predicate"))
        .filter(|key| !config.iter().any(|f| f.name == *key))
        .collect()
}

/// Warnings for a job graph (or a job document with `jobGraph`): each field of a vertex of a
/// known type that its configuration does not name, at its pointer, with the closest known
/// field when one is near (a likely misspelling). The fields are kept as they are: the graph
/// is not changed, and a vertex is never refused for them.
///
/// ```
/// let graph = serde_json::json!({"vertices": [
///     {"type": "logs-filter", "name": "f", "query": "*", "invertd": true},
///     {"type": "someone-elses-type", "name": "x", "anything": 1}]});
/// let warnings = jobgraph_model::ops::unknown_field_warnings(&graph);
/// assert_eq!(warnings.len(), 1);
/// assert_eq!(warnings[0].pointer, "/vertices/0/invertd");
/// assert!(warnings[0].message.contains("did you mean `inverted`?"), "{}", warnings[0].message);
/// ```
pub fn unknown_field_warnings(graph: &Value) -> Vec<crate::Problem> {
    let (graph, prefix) = match graph.get("jobGraph") {
        Some(inner) => (inner, "/jobGraph"),
        None => (graph, ""),
    };
    let Some(vertices) = graph.get("vertices").and_then(Value::as_array) else {
        return Vec::new();
    };
    let mut warnings = Vec::new();
    for (i, vertex) in vertices.iter().enumerate() {
        let Some(fields) = vertex.as_object() else {
            continue;
        };
        let Some(op) = fields
            .get("type")
            .and_then(Value::as_str)
            .and_then(super::find)
        else {
            continue;
        };
        let Shape::Object(config) = (op.config)() else {
            continue;
        };
        for key in unknown_fields(op, fields) {
            let closest = config
                .iter()
                .map(|f| (edit_distance(key, f.name), f.name))
                .filter(|(d, name)| *d <= 2.max(name.len() / 4))
                .min();
            let hint = match closest {
                Some((_, name)) => format!("did you mean `{name}`?"),
                None => {
                    let names: Vec<&str> = config.iter().map(|f| f.name).collect();
                    format!("its fields are `{}`", names.join("`, `"))
                }
            };
            warnings.push(crate::Problem {
                pointer: format!("{prefix}/vertices/{i}/{}", pointer_token(key)),
                message: format!(
                    "unknown field `{key}` of type {:?}: kept as it is, but nothing reads it; {hint}",
                    op.type_name
                ),
            });
        }
    }
    warnings
}

/// Levenshtein distance in characters, for "did you mean".
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let current = row[j + 1];
            row[j + 1] = (previous + usize::from(ca != *cb))
                .min(row[j] + 1)
                .min(current + 1);
            previous = current;
        }
    }
    row[b.len()]
}
