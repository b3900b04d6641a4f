//! Graph validation: the `checkValidJobGraph` check.
//!
//! Validation works on raw JSON so that it can report *every* problem of a document that is not
//! even shaped like a graph, each with the JSON pointer of the offending value.

use std::collections::HashMap;

use serde_json::Value;

use crate::edge::{Edge, is_valid_vertex_name, parse_edge};
use crate::json::kind_of;
use crate::pipeline::{Query, vertex_predicate};
use jobgraph_model::Problem;
use jobgraph_model::ops::{self, PredicateUse};

/// At most this many problems are listed by [`validate_job_graph`]; more are counted in one
/// last problem, so that a huge invalid graph (a million copies of one edge) gets a short answer.
pub const MAX_PROBLEMS: usize = 100;

/// Checks that `graph` is a valid job graph and returns every problem found (empty when valid).
///
/// Checks: `vertices` is an array of objects; each has a `type` string and a `name` that is a
/// non-empty string without `:` or white space, unique in the graph; known vertex types carry
/// their required fields with the right JSON types; `edges` (optional) is an array of strings,
/// each a well-formed edge whose both ends name existing vertices, that does not wire a vertex
/// to itself (`a -> a`, `a:output -> a:input`) and that is not a duplicate of an earlier edge
/// (the same ends, white space aside). At most 100 problems are listed, then how many more there are.
///
/// ```
/// use serde_json::json;
/// let problems = jobgraph_core::validate_job_graph(&json!({
///     "vertices": [{"type": "logs-filter", "name": "f"}, {"type": "x", "name": "f"}],
///     "edges": ["f -> nowhere"]
/// }));
/// let pointers: Vec<_> = problems.iter().map(|p| p.pointer.as_str()).collect();
/// assert_eq!(pointers, ["/vertices/0/query", "/vertices/1/name", "/edges/0"]);
/// ```
pub fn validate_job_graph(graph: &Value) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut not_shown = 0usize;
    let mut report = |pointer: String, message: String| {
        if problems.len() < MAX_PROBLEMS {
            problems.push(Problem { pointer, message });
        } else {
            not_shown += 1;
        }
    };
    let Some(object) = graph.as_object() else {
        report(
            String::new(),
            format!(
                "a job graph must be an object {{vertices, edges}}, found {}",
                kind_of(graph)
            ),
        );
        return problems;
    };

    let mut names: HashMap<&str, usize> = HashMap::new();
    match object.get("vertices") {
        None => report("/vertices".into(), "is missing".into()),
        Some(Value::Array(vertices)) => {
            for (i, vertex) in vertices.iter().enumerate() {
                check_vertex(i, vertex, &mut names, &mut report);
            }
        }
        Some(other) => report(
            "/vertices".into(),
            format!("must be an array, found {}", kind_of(other)),
        ),
    }

    check_edges(object.get("edges"), &names, &mut report);
    if not_shown > 0 {
        problems.push(Problem {
            pointer: String::new(),
            message: format!(
                "{not_shown} more problems not listed (only the first {MAX_PROBLEMS} are): \
                 fix the ones above and validate again"
            ),
        });
    }
    problems
}

/// One vertex: its object shape, `type`, `name` (unique: `names` collects them), its
/// configuration against the catalog of operations, its predicate, grok rules, dataset and
/// storage names.
fn check_vertex<'a>(
    i: usize,
    vertex: &'a Value,
    names: &mut HashMap<&'a str, usize>,
    report: &mut impl FnMut(String, String),
) {
    let at = format!("/vertices/{i}");
    let Some(fields) = vertex.as_object() else {
        report(
            at,
            format!("a vertex must be an object, found {}", kind_of(vertex)),
        );
        return;
    };
    let vertex_type = match fields.get("type") {
        Some(Value::String(t)) if !t.is_empty() => Some(t.as_str()),
        Some(Value::String(_)) => {
            report(format!("{at}/type"), "is empty".into());
            None
        }
        Some(other) => {
            report(
                format!("{at}/type"),
                format!("must be a string, found {}", kind_of(other)),
            );
            None
        }
        None => {
            report(format!("{at}/type"), "is missing".into());
            None
        }
    };
    match fields.get("name") {
        Some(Value::String(name)) if !is_valid_vertex_name(name) => report(
            format!("{at}/name"),
            format!(
                "{name:?} is not a valid vertex name: it must be non-empty, without `:` or white space"
            ),
        ),
        Some(Value::String(name)) => {
            if let Some(first) = names.insert(name, i) {
                names.insert(name, first);
                report(
                    format!("{at}/name"),
                    format!("duplicate vertex name {name:?} (first used at /vertices/{first})"),
                );
            }
        }
        Some(other) => report(
            format!("{at}/name"),
            format!("must be a string, found {}", kind_of(other)),
        ),
        None => report(format!("{at}/name"), "is missing".into()),
    }
    if let Some(op) = vertex_type.and_then(ops::find) {
        ops::check_config(op, fields, &at, report);
        if op.predicate != PredicateUse::None {
            let required = op.predicate == PredicateUse::Required;
            check_predicate(fields, required, &at, op.type_name, report);
        }
    }
    #[cfg(feature = "grok")]
    if vertex_type == Some("grok-parser") {
        check_grok_rules(fields, &at, report);
    }
    check_table_or_dataset(fields, vertex_type, &at, report);
    crate::names::check_vertex_names(fields, vertex_type, &at, report);
}

/// The edges: each a string `from[:port] -> to[:port]` between vertices of the graph, not
/// from a vertex to itself, and not twice.
fn check_edges(
    edges: Option<&Value>,
    names: &HashMap<&str, usize>,
    report: &mut impl FnMut(String, String),
) {
    match edges {
        None | Some(Value::Null) => {}
        Some(Value::Array(edges)) => {
            let mut seen_edges: HashMap<Edge, usize> = HashMap::new();
            for (i, edge) in edges.iter().enumerate() {
                let at = format!("/edges/{i}");
                let Some(text) = edge.as_str() else {
                    report(
                        at,
                        format!("an edge must be a string, found {}", kind_of(edge)),
                    );
                    continue;
                };
                match parse_edge(text) {
                    Err(e) => report(at, e.to_string()),
                    Ok(edge) => {
                        for (side, end) in [("source", &edge.from), ("target", &edge.to)] {
                            if !names.contains_key(end.vertex.as_str()) {
                                report(
                                    at.clone(),
                                    format!(
                                        "edge {text:?}: {side} vertex {:?} does not exist",
                                        end.vertex
                                    ),
                                );
                            }
                        }
                        if edge.from.vertex == edge.to.vertex {
                            report(
                                at.clone(),
                                format!(
                                    "edge {text:?} wires vertex {:?} to itself: a vertex cannot \
                                     feed its own input; remove the edge",
                                    edge.from.vertex
                                ),
                            );
                        }
                        // The same two ends (white space aside) = the same edge.
                        let first = *seen_edges.entry(edge).or_insert(i);
                        if first != i {
                            report(
                                at,
                                format!(
                                    "duplicate edge {text:?} (the same edge as /edges/{first}): \
                                     remove one of them"
                                ),
                            );
                        }
                    }
                }
            }
        }
        Some(other) => report(
            "/edges".into(),
            format!("must be an array of strings, found {}", kind_of(other)),
        ),
    }
}

/// The vertex's predicate (`predicate`, which wins, or `query`) compiles; the error points
/// into it (`/vertices/1/predicate/queries/0/query`).
fn check_predicate(
    fields: &serde_json::Map<String, Value>,
    required: bool,
    at: &str,
    vertex_type: &str,
    report: &mut impl FnMut(String, String),
) {
    let (field, value) = match vertex_predicate(fields) {
        Some(found) => found,
        None if required => {
            return report(
                format!("{at}/query"),
                format!(
                    "`query` is required for type {vertex_type:?} (or `predicate`, the public service's name): the events it matches, e.g. {{\"type\": \"datadog-query\", \"query\": \"level:error\"}}"
                ),
            );
        }
        None => return,
    };
    if let Err(e) = Query::check_predicate(value) {
        report(format!("{at}/{field}{}", e.pointer), e.message);
    }
    // `query` beside a `predicate` is not run (`predicate` wins), but it is still a predicate:
    // one of the wrong shape is refused, not kept unnoticed.
    if field == "predicate"
        && let Some(query) = fields.get("query")
        && let Err(e) = Query::check_predicate(query)
    {
        report(format!("{at}/query{}", e.pointer), e.message);
    }
}

/// A `grok-parser`'s rules compile, the error pointing at the rule's item
/// (`/vertices/1/grokParsingRules/2`). Only when both fields have their shape: a wrong shape
/// is reported by the field rules already.
#[cfg(feature = "grok")]
fn check_grok_rules(
    fields: &serde_json::Map<String, Value>,
    at: &str,
    report: &mut impl FnMut(String, String),
) {
    use crate::GrokRules;
    use crate::grok::GrokParser;
    let rules = |field: &str| -> Option<GrokRules> {
        match fields.get(field) {
            None | Some(Value::Null) => Some(GrokRules::default()),
            Some(value) => serde_json::from_value(value.clone()).ok(),
        }
    };
    let (Some(parsing), Some(helpers)) = (rules("grokParsingRules"), rules("grokHelperRules"))
    else {
        return;
    };
    if !fields.contains_key("grokParsingRules") {
        return;
    }
    if let Err(error) = GrokParser::from_rules(&parsing, &helpers) {
        let within = error
            .pointer()
            .unwrap_or_else(|| "/grokParsingRules".to_owned());
        report(format!("{at}{within}"), error.to_string());
    }
}

/// A table source names a `table` or a dataset; a table sink names a dataset.
fn check_table_or_dataset(
    fields: &serde_json::Map<String, Value>,
    vertex_type: Option<&str>,
    at: &str,
    report: &mut impl FnMut(String, String),
) {
    let has = |name: &str| fields.contains_key(name);
    match vertex_type {
        Some(t @ ("logs-iceberg-table-source" | "grepr-raw-log-source"))
            if !has("table") && !has("datasetId") && !has("datasetName") =>
        {
            report(
                format!("{at}/table"),
                format!(
                    "type {t:?} reads a `table` or a dataset (`datasetId` or `datasetName`): give one"
                ),
            )
        }
        Some(t @ "logs-iceberg-table-sink") if !has("datasetId") && !has("datasetName") => report(
            format!("{at}/datasetId"),
            format!(
                "`datasetId` (or `datasetName`) is required for type {t:?}: the dataset the events are written to"
            ),
        ),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn valid_graph_has_no_problems() {
        let graph = json!({
            "vertices": [
                {"type": "logs-iceberg-table-source", "name": "src", "table": "logs", "processing": "STREAM",
                 "query": {"type": "simple-query", "query": "*"}},
                {"type": "log-transform", "name": "tag", "transforms": [
                    {"type": "tag-action", "order": 1, "modification": "SET", "tagKey": "k", "values": ["v"]}]},
                {"type": "logs-sync-sink", "name": "out"},
                {"type": "something-new", "name": "extra", "anything": [1, 2]}
            ],
            "edges": ["src -> tag:input", "tag:output -> out"]
        });
        assert_eq!(validate_job_graph(&graph), vec![]);
    }

    #[test]
    fn reports_every_problem_with_pointer() {
        let graph = json!({
            "vertices": [
                {"type": "logs-filter", "name": "a b", "query": {"type": "simple-query"}},
                {"name": "b"},
                7,
                {"type": "log-transform", "name": "t", "transforms": [{"type": "tag-action", "order": "1", "modification": "MOVE", "tagKey": "k"}]},
                {"type": "template-operation", "name": "op", "templateVersion": 0, "templateInputs": []}
            ],
            "edges": ["b -> zz", "nonsense", 5]
        });
        let problems = validate_job_graph(&graph);
        let pointers: Vec<_> = problems.iter().map(|p| p.pointer.as_str()).collect();
        assert_eq!(
            pointers,
            [
                "/vertices/0/name",
                "/vertices/0/query",
                "/vertices/1/type",
                "/vertices/2",
                "/vertices/3/transforms/0/order",
                "/vertices/3/transforms/0/modification",
                "/vertices/4/templateId",
                "/vertices/4/templateVersion",
                "/vertices/4/templateInputs",
                "/edges/0",
                "/edges/1",
                "/edges/2",
            ]
        );
        assert!(problems[9].message.contains("\"zz\" does not exist"));
        assert!(problems[10].message.contains("\"nonsense\""));
    }

    #[test]
    fn duplicate_edges_and_self_loops_are_named() {
        let graph = json!({
            "vertices": [{"type": "x", "name": "a"}, {"type": "x", "name": "b"}],
            "edges": ["a -> b", "a->b", "a:output -> b", "b -> b", "a:output -> a:input", "a -> b"]
        });
        let problems = validate_job_graph(&graph);
        let pointers: Vec<_> = problems.iter().map(|p| p.pointer.as_str()).collect();
        assert_eq!(pointers, ["/edges/1", "/edges/3", "/edges/4", "/edges/5"]);
        assert_eq!(
            problems[0].message,
            "duplicate edge \"a->b\" (the same edge as /edges/0): remove one of them"
        );
        assert!(problems[1].message.contains("wires vertex \"b\" to itself"));
        assert!(problems[1].message.contains("remove the edge"));
        assert!(problems[2].message.contains("wires vertex \"a\" to itself"));
        assert!(problems[3].message.contains("the same edge as /edges/0"));
    }

    #[test]
    fn a_million_copies_of_one_edge_get_a_short_answer() {
        let edges: Vec<Value> = (0..1_000_000).map(|_| json!("a -> b")).collect();
        let graph = json!({
            "vertices": [{"type": "x", "name": "a"}, {"type": "x", "name": "b"}],
            "edges": edges
        });
        let problems = validate_job_graph(&graph);
        assert_eq!(problems.len(), MAX_PROBLEMS + 1);
        assert_eq!(problems[0].pointer, "/edges/1");
        let last = &problems[MAX_PROBLEMS];
        assert_eq!(last.pointer, "");
        assert!(
            last.message.starts_with(&format!(
                "{} more problems not listed",
                999_999 - MAX_PROBLEMS
            )),
            "{}",
            last.message
        );
    }

    #[cfg(feature = "grok")]
    #[test]
    fn grok_rules_compile_where_the_graph_is_checked() {
        let graph = json!({"vertices": [
            {"type": "grok-parser", "name": "ok", "grokParsingRules": ["r %{word:w}"]},
            {"type": "grok-parser", "name": "bad", "grokParsingRules": ["r %{word:w}", "s %{nosuch:x}"]},
            {"type": "grok-parser", "name": "helper", "grokParsingRules": ["r %{h}"], "grokHelperRules": ["h %{word"]},
            {"type": "grok-parser", "name": "shape", "grokParsingRules": 3}
        ]});
        let problems = validate_job_graph(&graph);
        let pointers: Vec<_> = problems.iter().map(|p| p.pointer.as_str()).collect();
        assert_eq!(
            pointers,
            [
                "/vertices/1/grokParsingRules/1",
                "/vertices/2/grokHelperRules/0",
                "/vertices/3/grokParsingRules"
            ],
            "{problems:?}"
        );
        assert!(
            problems[0].message.starts_with("Invalid grok rule s at 2:"),
            "{}",
            problems[0].message
        );
    }

    #[test]
    fn not_an_object() {
        let problems = validate_job_graph(&json!("x"));
        assert_eq!(problems.len(), 1);
        assert_eq!(
            problems[0].to_string(),
            "(root): a job graph must be an object {vertices, edges}, found a string"
        );
    }
}
