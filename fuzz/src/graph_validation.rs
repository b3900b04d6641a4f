//! `graph_validation`: generated job graphs against validation, with a validity oracle.

use std::collections::HashSet;

use arbitrary::{Result as AResult, Unstructured};
use jobgraph_core::{JobGraph, validate_job_graph};
use serde_json::{Map, Value, json};

/// `graph_validation`: input that is JSON is validated as is; any other input is read
/// structure-aware into a graph of names from a small alphabet whose validity is known in advance
/// (an oracle for `validate_job_graph`).
pub fn graph_validation(data: &[u8]) {
    if let Ok(value) = serde_json::from_slice::<Value>(data) {
        check_graph_value(&value);
        return;
    }
    let mut u = Unstructured::new(data);
    if let Ok((value, expect_valid)) = gen_graph(&mut u) {
        let problems = check_graph_value(&value);
        assert_eq!(
            problems.is_empty(),
            expect_valid,
            "validation disagrees with the generator for {value}: {problems:?}"
        );
    }
}

/// The properties of `validate_job_graph` on any JSON value; returns the problems.
fn check_graph_value(value: &Value) -> Vec<jobgraph_core::Problem> {
    let problems = validate_job_graph(value);
    assert_eq!(
        validate_job_graph(value),
        problems,
        "validation is deterministic"
    );
    for p in &problems {
        assert!(!p.message.is_empty());
        // Every pointer names the offending value, or (for a missing field) a field of an
        // object that exists.
        if value.pointer(&p.pointer).is_none() {
            let parent = p.pointer.rsplit_once('/').map_or("", |(parent, _)| parent);
            assert!(
                value.pointer(parent).is_some_and(Value::is_object),
                "problem pointer {:?} leads nowhere in {value}",
                p.pointer
            );
        }
    }
    let parsed = JobGraph::from_value(value.clone());
    if !problems.is_empty() {
        return problems;
    }
    let graph = parsed.unwrap_or_else(|e| panic!("valid graph {value} does not load: {e}"));
    // Unique, valid names; every edge parses and joins existing vertices.
    let mut names = HashSet::new();
    for v in &graph.vertices {
        assert!(jobgraph_core::edge::is_valid_vertex_name(v.name()), "{v:?}");
        assert!(
            names.insert(v.name()),
            "duplicate {:?} in a valid graph",
            v.name()
        );
        v.kind()
            .unwrap_or_else(|e| panic!("valid vertex has no typed view: {e} in {value}"));
    }
    let edges = graph
        .parsed_edges()
        .unwrap_or_else(|e| panic!("valid graph with a malformed edge: {e}"));
    for e in &edges {
        assert!(names.contains(e.from.vertex.as_str()) && names.contains(e.to.vertex.as_str()));
    }
    // Writing it is lossless: exactly the input (same key order), except that a missing or
    // `null` `edges` is written as `[]`.
    let written = graph.to_value();
    let mut expected = value.clone();
    if let Some(object) = expected.as_object_mut()
        && matches!(object.get("edges"), None | Some(Value::Null))
    {
        if object.contains_key("edges") {
            object.insert("edges".into(), json!([]));
        } else {
            // Inserted right after `vertices`.
            let mut rebuilt = Map::new();
            for (k, v) in std::mem::take(object) {
                let after = k == "vertices";
                rebuilt.insert(k, v);
                if after {
                    rebuilt.insert("edges".into(), json!([]));
                }
            }
            *object = rebuilt;
        }
    }
    assert_eq!(
        serde_json::to_string(&written).unwrap(),
        serde_json::to_string(&expected).unwrap(),
        "to_value(from_value(v)) is not v"
    );
    // Reading the written graph gives the same graph and writes the same text. (Not `==` on
    // `JobGraph`: it also compares where `edges` stood, which writing a graph without `edges`
    // fixes.)
    let again = JobGraph::from_value(written.clone()).unwrap();
    assert_eq!(again.vertices, graph.vertices);
    assert_eq!(again.edges, graph.edges);
    assert_eq!(again.to_value(), written);
    assert!(validate_job_graph(&written).is_empty());
    problems
}

pub(super) const NAMES: &[&str] = &["a", "b", "c", "src", "out", "a.b", "ü"];
const BAD_NAMES: &[&str] = &["", "a b", "a:b", "\t", "x\u{2003}y"];
pub(super) const PORTS: &[&str] = &["input", "output", "in2", "preview"];

/// A graph and whether it must be valid.
fn gen_graph(u: &mut Unstructured<'_>) -> AResult<(Value, bool)> {
    let mut valid = true;
    let mut vertices = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for _ in 0..u.int_in_range(0..=6)? {
        let name = if u.ratio(1, 12)? {
            valid = false;
            Value::String((*u.choose(BAD_NAMES)?).to_owned())
        } else {
            let n = (*u.choose(NAMES)?).to_owned();
            if names.contains(&n) {
                valid = false;
            }
            names.push(n.clone());
            Value::String(n)
        };
        let (mut fields, ok) = gen_vertex_fields(u)?;
        valid &= ok;
        fields.insert("name".into(), name);
        // Field order does not matter to validation, but must survive the roundtrip.
        if u.arbitrary()? {
            let name = fields.shift_remove("name").unwrap();
            fields.insert("name".into(), name);
        }
        if u.ratio(1, 20)? {
            fields.remove("name");
            valid = false;
        }
        if u.ratio(1, 20)? {
            fields.insert(
                "type".into(),
                json!(u.choose(&[json!(""), json!(3), json!(null)])?),
            );
            valid = false;
        }
        vertices.push(Value::Object(fields));
    }
    if u.ratio(1, 20)? {
        vertices.push(json!(u.choose(&[json!(7), json!("v"), json!([])])?));
        valid = false;
    }
    // Edges are tracked apart: they count only when `edges` ends up an array in the graph.
    let mut edges_valid = true;
    let mut edges = Vec::new();
    let mut seen_edges = std::collections::HashSet::new();
    for _ in 0..u.int_in_range(0..=5)? {
        if u.ratio(1, 15)? {
            edges.push(
                u.choose(&[json!(5), json!("a b"), json!("a -> b -> c"), json!("->")])?
                    .clone(),
            );
            edges_valid = false;
            continue;
        }
        let mut end = |u: &mut Unstructured<'_>| -> AResult<String> {
            let vertex = if !names.is_empty() && u.ratio(7, 8)? {
                u.choose(&names)?.clone()
            } else {
                let v = (*u.choose(NAMES)?).to_owned();
                if !names.contains(&v) {
                    edges_valid = false;
                }
                v
            };
            Ok(if u.arbitrary()? {
                format!("{vertex}:{}", u.choose(PORTS)?)
            } else {
                vertex
            })
        };
        let from = end(u)?;
        let to = end(u)?;
        // A vertex wired to itself, or the same two ends as an earlier edge, is invalid.
        let vertex_of = |end: &str| end.split(':').next().unwrap_or_default().to_owned();
        if vertex_of(&from) == vertex_of(&to) || !seen_edges.insert((from.clone(), to.clone())) {
            edges_valid = false;
        }
        let arrow = u.choose(&["->", " -> ", "  ->\t"])?;
        edges.push(Value::String(format!("{from}{arrow}{to}")));
    }
    let mut graph = Map::new();
    if u.ratio(1, 8)? {
        graph.insert("name".into(), json!("job"));
    }
    let edges_first = u.ratio(1, 4)?;
    let edges_value = match u.int_in_range(0..=9)? {
        0 => None,
        1 => Some(Value::Null),
        2 => {
            valid = false;
            Some(json!({"a": "b"}))
        }
        _ => Some(Value::Array(edges.clone())),
    };
    if edges_value.as_ref().is_some_and(Value::is_array) {
        valid &= edges_valid;
    }
    if edges_first && let Some(e) = &edges_value {
        graph.insert("edges".into(), e.clone());
    }
    match u.int_in_range(0..=19)? {
        0 => valid = false,
        1 => {
            graph.insert("vertices".into(), json!({}));
            valid = false;
        }
        _ => {
            graph.insert("vertices".into(), Value::Array(vertices));
        }
    }
    if !edges_first && let Some(e) = edges_value {
        graph.insert("edges".into(), e);
    }
    if u.ratio(1, 8)? {
        graph.insert("execution".into(), json!("BATCH"));
    }
    Ok((Value::Object(graph), valid))
}

/// Fields of one vertex (without `name`) and whether they are valid for its type.
fn gen_vertex_fields(u: &mut Unstructured<'_>) -> AResult<(Map<String, Value>, bool)> {
    let query_ok = json!({"type": "simple-query", "query": "level:error"});
    let query_bad = u
        .choose(&[
            json!({"type": "simple-query"}),
            json!({"query": "q"}),
            json!("q"),
            json!({"type": 1, "query": "q"}),
        ])?
        .clone();
    let mut ok = true;
    let mut bad = |u: &mut Unstructured<'_>| -> AResult<bool> {
        let b = u.ratio(1, 6)?;
        if b {
            ok = false;
        }
        Ok(b)
    };
    let mut f = Map::new();
    match u.int_in_range(0..=6)? {
        0 => {
            f.insert("type".into(), json!("logs-filter"));
            if !bad(u)? {
                f.insert("query".into(), query_ok);
            } else if u.arbitrary()? {
                f.insert("query".into(), query_bad);
            }
        }
        1 => {
            f.insert("type".into(), json!("logs-iceberg-table-source"));
            if !bad(u)? {
                f.insert("table".into(), json!("logs"));
            } else if u.arbitrary()? {
                f.insert("table".into(), json!(5));
            }
            if u.arbitrary()? {
                let b = bad(u)?;
                f.insert(
                    "processing".into(),
                    if b { json!(true) } else { json!("STREAM") },
                );
            }
            if u.arbitrary()? {
                let b = bad(u)?;
                f.insert("query".into(), if b { query_bad } else { query_ok });
            }
        }
        2 => {
            f.insert("type".into(), json!("logs-sync-sink"));
            if u.arbitrary()? {
                let b = bad(u)?;
                f.insert(
                    "integration".into(),
                    if b { json!(null) } else { json!("vendor") },
                );
            }
        }
        3 => {
            f.insert("type".into(), json!("log-transform"));
            if bad(u)? {
                if u.arbitrary()? {
                    f.insert("transforms".into(), json!({}));
                }
            } else {
                let mut transforms = Vec::new();
                for i in 0..u.int_in_range(0..=3)? {
                    let mut t = json!({"type": "tag-action", "order": i, "modification": "SET",
                                       "tagKey": "k", "values": ["v"]});
                    match u.int_in_range(0..=9)? {
                        0 if bad(u)? => t["order"] = json!("1"),
                        1 if bad(u)? => t["modification"] = json!("MOVE"),
                        2 if bad(u)? => t["values"] = json!([1]),
                        3 if bad(u)? => {
                            t.as_object_mut().unwrap().remove("tagKey");
                        }
                        4 if bad(u)? => t = json!(3),
                        5 => t = json!({"type": "sample", "rate": 0.5}),
                        6 => t["order"] = json!(-4),
                        7 => {
                            t.as_object_mut().unwrap().remove("values");
                        }
                        _ => {}
                    }
                    transforms.push(t);
                }
                f.insert("transforms".into(), Value::Array(transforms));
            }
        }
        4 => {
            f.insert("type".into(), json!("template-operation"));
            if !bad(u)? {
                f.insert("templateId".into(), json!("t"));
            }
            if u.arbitrary()? {
                let b = bad(u)?;
                let version = if b {
                    u.choose(&[json!(0), json!(-1), json!(1.5), json!("1")])?
                        .clone()
                } else {
                    json!(u.int_in_range(1..=3)?)
                };
                f.insert("templateVersion".into(), version);
            }
            if u.arbitrary()? {
                let b = bad(u)?;
                f.insert(
                    "templateInputs".into(),
                    if b { json!([]) } else { json!({"q": 1}) },
                );
            }
            if u.arbitrary()? {
                let b = bad(u)?;
                f.insert(
                    "draftMode".into(),
                    if b { json!("yes") } else { json!(true) },
                );
            }
        }
        _ => {
            f.insert(
                "type".into(),
                json!(u.choose(&["x-custom", "logs-sample"])?),
            );
            if u.arbitrary()? {
                f.insert("anything".into(), json!([1, {"a": null}]));
            }
        }
    }
    Ok((f, ok))
}
