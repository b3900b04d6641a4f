//! The checks of the cargo-fuzz targets of jobgraph-core, one public function per target.
//!
//! Each function takes the raw fuzz input, runs it through jobgraph-core and asserts the
//! target's properties (a failed property panics, which libFuzzer reports as a crash). The same
//! file is compiled into the native replay test (`tests/fuzz_replay.rs`, through `#[path]`), which
//! runs every file of `fuzz/corpus/<target>/` through these functions under `cargo test`; so this
//! file may only use what both crates have: `jobgraph_core`, `serde_json` and `arbitrary`.
//!
//! Structure-aware inputs are read with [`arbitrary::Unstructured`]: the bytes choose among
//! fragments (names from a small alphabet, vertex types, script fragments …), so the fuzzer
//! spends its time past the JSON parser instead of in it.

#![allow(clippy::missing_panics_doc)]

use std::collections::HashSet;

use arbitrary::{Result as AResult, Unstructured};
use jobgraph_core::{
    Error, ExecutionCache, InputSchema, JobGraph, Limits, ResolveOptions, Resolver, Template,
    TemplateSet, fill_defaults, format_edge, parse_edge, validate_job_graph,
};
use serde_json::{Map, Value, json};

// ---------------------------------------------------------------------------------------------
// edge_parser
// ---------------------------------------------------------------------------------------------

/// `edge_parser`: any string → `parse_edge`; a parsed edge formats to a canonical text that
/// parses to the same edge and formats to itself; an error quotes the text.
pub fn edge_parser(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    check_edge_text(text);
    // The same text as an endpoint pair, so that the endpoint grammar is reached directly too.
    if let Some((from, to)) = text.split_once('\n') {
        check_edge_text(&format!("{from}->{to}"));
    }
}

fn check_edge_text(text: &str) {
    match parse_edge(text) {
        Ok(edge) => {
            let canonical = format_edge(&edge);
            let again = parse_edge(&canonical)
                .unwrap_or_else(|e| panic!("canonical form {canonical:?} of {text:?} fails: {e}"));
            assert_eq!(again, edge, "roundtrip of {text:?} via {canonical:?}");
            assert_eq!(
                format_edge(&again),
                canonical,
                "canonical form is not a fixed point"
            );
            assert_eq!(edge.to_string(), canonical);
            // Names never carry the characters that delimit them.
            for end in [&edge.from, &edge.to] {
                for name in std::iter::once(&end.vertex).chain(end.port.as_ref()) {
                    assert!(!name.is_empty(), "empty name in {text:?}");
                    assert!(!name.contains(':'), "`:` in name {name:?} of {text:?}");
                    assert!(!name.contains("->"), "`->` in name {name:?} of {text:?}");
                    assert!(!name.chars().any(char::is_whitespace), "space in {name:?}");
                }
            }
            // The endpoints parse on their own to the same endpoints.
            for end in [&edge.from, &edge.to] {
                let parsed: jobgraph_core::Endpoint = end.to_string().parse().unwrap();
                assert_eq!(&parsed, end);
            }
        }
        Err(e) => {
            assert_eq!(e.edge, text, "the error quotes the text");
            assert!(!e.reason.is_empty());
            assert!(e.to_string().contains(&format!("{text:?}")));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// graph_validation
// ---------------------------------------------------------------------------------------------

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

const NAMES: &[&str] = &["a", "b", "c", "src", "out", "a.b", "ü"];
const BAD_NAMES: &[&str] = &["", "a b", "a:b", "\t", "x\u{2003}y"];
const PORTS: &[&str] = &["input", "output", "in2", "preview"];

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

// ---------------------------------------------------------------------------------------------
// template_loading
// ---------------------------------------------------------------------------------------------

/// Byte that separates the template JSON from optional input JSON (never valid in UTF-8).
pub const INPUT_SEPARATOR: u8 = 0xFF;

/// `template_loading`: `<template JSON>[0xFF <inputs JSON>]`. The template deserializes or fails
/// with an error; a template roundtrips through serde; its `inputSchema` compiles or fails with
/// an error; `check` of the given inputs (and of a few fixed probes) fills defaults, and its
/// result is consistent with `is_valid`, is a fixed point, and every problem points into the
/// filled inputs.
pub fn template_loading(data: &[u8]) {
    let (template_part, inputs_part) = match data.iter().position(|&b| b == INPUT_SEPARATOR) {
        Some(i) => (&data[..i], Some(&data[i + 1..])),
        None => (data, None),
    };
    let Ok(value) = serde_json::from_slice::<Value>(template_part) else {
        return;
    };
    // The same JSON text through the loader that takes a separate script.
    if let Ok(text) = std::str::from_utf8(template_part) {
        let has_inline = value.get("template").is_some();
        for script in [None, Some("({vertices: [], edges: []})".to_owned())] {
            let with_script = script.is_some();
            if let Ok(t) = Template::from_json_with_script(text, script) {
                assert!(has_inline != with_script, "accepted a script twice or none");
                if with_script {
                    assert_eq!(t.template, "({vertices: [], edges: []})");
                }
            }
        }
    }
    let template: Template = match serde_json::from_value(value.clone()) {
        Ok(t) => t,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            // The schema alone still goes through the compiler.
            if let Some(schema) = value.get("inputSchema") {
                check_schema(Some(schema), inputs_part);
            }
            return;
        }
    };
    let written = serde_json::to_value(&template).unwrap();
    let back: Template = serde_json::from_value(written.clone())
        .unwrap_or_else(|e| panic!("serialized template does not load: {e}: {written}"));
    assert_eq!(back, template, "template serde roundtrip");
    let _ = template.label();
    let names = template.parameter_names();
    if let Some(Value::Object(props)) = template
        .input_schema
        .as_ref()
        .and_then(|s| s.get("properties"))
    {
        assert_eq!(names.len(), props.len());
    }
    check_schema(template.input_schema.as_ref(), inputs_part);
}

fn check_schema(schema_value: Option<&Value>, inputs_part: Option<&[u8]>) {
    let schema = match InputSchema::compile(schema_value) {
        Ok(s) => s,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    let mut probes = vec![
        json!({}),
        json!(null),
        json!([]),
        json!({"a": 1, "q": "x"}),
        json!(0),
    ];
    if let Some(Value::Object(props)) = schema_value.and_then(|s| s.get("properties")) {
        // Each property given the value of its own `default`, or a string.
        let mut all = Map::new();
        for (k, sub) in props {
            all.insert(k.clone(), sub.get("default").cloned().unwrap_or(json!("s")));
        }
        probes.push(Value::Object(all));
    }
    if let Some(bytes) = inputs_part
        && let Ok(v) = serde_json::from_slice::<Value>(bytes)
    {
        probes.push(v);
    }
    for probe in probes {
        check_inputs(&schema, schema_value, probe);
    }
}

fn check_inputs(schema: &InputSchema, schema_value: Option<&Value>, values: Value) {
    let mut filled = values.clone();
    if let Some(s) = schema_value {
        fill_defaults(s, s, &mut filled, 0);
    }
    match schema.check(values) {
        Ok(out) => {
            assert_eq!(out, filled, "check returns the filled inputs");
            assert!(
                schema.is_valid(&out),
                "check accepted what is_valid rejects: {out}"
            );
        }
        Err(problems) => {
            assert!(!problems.is_empty());
            assert!(
                !schema.is_valid(&filled),
                "check rejected what is_valid accepts: {filled}"
            );
            for p in &problems {
                assert!(!p.message.is_empty());
                assert!(
                    filled.pointer(&p.pointer).is_some(),
                    "problem pointer {:?} not in {filled}",
                    p.pointer
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// resolution
// ---------------------------------------------------------------------------------------------

/// Template ids the generated operations refer to (`nope` never exists).
const TEMPLATE_IDS: &[&str] = &["t0", "t1", "t2", "nope"];

/// The limits every resolution of the fuzzer runs with.
pub fn fuzz_limits() -> Limits {
    Limits {
        timeout_ms: 50,
        loop_iterations: 10_000,
        recursion_depth: 64,
        max_output_vertices: 50,
        max_output_bytes: 64 * 1024,
        ..Limits::default()
    }
}

/// Template operations one resolution of the fuzzer may expand: templates that return
/// operations of themselves multiply them at every level; 30 keeps a case to at most 30
/// scripts, and reaches `MAX_OPERATIONS_EXCEEDED`.
pub const FUZZ_MAX_OPERATIONS: usize = 30;

/// A generated resolution case: templates, job graph and options.
#[derive(Debug)]
pub struct ResolutionCase {
    /// The templates.
    pub templates: Vec<Template>,
    /// The job graph (may be invalid).
    pub graph: Value,
    /// Draft mode for the whole resolution.
    pub draft: bool,
}

/// `resolution`: generated templates (scripts assembled from fragments) and a generated job
/// graph, resolved with tight limits. On success the graph is valid, has no template operations,
/// unique names and a provenance entry for exactly the produced vertices (named by their operation
/// path); on failure the message starts with the error's prefix.
///
/// Input that is a JSON object `{templates, job, options?}` (the seeds taken from the conformance
/// cases) is used as it is, with the same tight limits; any other input is read structure-aware.
pub fn resolution(data: &[u8]) {
    if let Ok(Value::Object(doc)) = serde_json::from_slice::<Value>(data) {
        if let Some(case) = case_from_json(&doc) {
            check_resolution(&case);
        }
        return;
    }
    let mut u = Unstructured::new(data);
    let Ok(case) = gen_resolution_case(&mut u) else {
        return;
    };
    check_resolution(&case);
}

fn case_from_json(doc: &Map<String, Value>) -> Option<ResolutionCase> {
    let templates = serde_json::from_value(doc.get("templates")?.clone()).ok()?;
    let job = doc.get("job")?;
    let graph = job.get("jobGraph").unwrap_or(job).clone();
    let draft = doc
        .get("options")
        .and_then(|o| o.get("draft"))
        .and_then(Value::as_bool)
        .unwrap_or(false);
    Some(ResolutionCase {
        templates,
        graph,
        draft,
    })
}

/// Runs one case and asserts the properties.
pub fn check_resolution(case: &ResolutionCase) {
    let templates: TemplateSet = case.templates.iter().cloned().collect();
    let graph = match JobGraph::from_value(case.graph.clone()) {
        Ok(g) => g,
        Err(_) => return,
    };
    let options = ResolveOptions {
        user: "fuzz".into(),
        limits: fuzz_limits(),
        draft: case.draft,
        max_operations: FUZZ_MAX_OPERATIONS,
    };
    let resolver = Resolver::builder(templates)
        .options(options)
        .cache(ExecutionCache::disabled())
        .build();
    match resolver.resolve_blocking(&graph) {
        Ok(resolution) => {
            let out = resolution.graph.to_value();
            let problems = validate_job_graph(&out);
            assert!(
                problems.is_empty(),
                "resolved graph is invalid: {problems:?}\n{out}"
            );
            let mut names = HashSet::new();
            for v in &resolution.graph.vertices {
                assert!(!v.is_template_operation(), "template operation left: {v:?}");
                assert!(
                    names.insert(v.name().to_owned()),
                    "duplicate name {:?}",
                    v.name()
                );
            }
            let own: HashSet<&str> = graph
                .vertices
                .iter()
                .filter(|v| !v.is_template_operation())
                .map(|v| v.name())
                .collect();
            for name in &names {
                assert!(
                    own.contains(name.as_str()) != resolution.provenance.contains_key(name),
                    "vertex {name:?}: a job-graph vertex must have no provenance, a produced one must"
                );
            }
            for (name, p) in &resolution.provenance {
                assert!(
                    names.contains(name),
                    "provenance for a missing vertex {name:?}"
                );
                assert!(!p.operation_path.is_empty());
                assert_eq!(
                    name,
                    &format!("{}.{}", p.operation_path.join("."), p.original_name),
                    "final name is not the operation path plus the original name"
                );
                assert!(
                    case.templates
                        .iter()
                        .any(|t| t.id == p.template_id && t.version == p.template_version),
                    "provenance names a template that is not in the set: {p:?}"
                );
            }
            for edge in &resolution.graph.edges {
                let parsed = parse_edge(edge).unwrap();
                assert_eq!(&format_edge(&parsed), edge, "edges are written canonically");
            }
        }
        Err(e) => check_error(&e),
    }
}

fn check_error(e: &Error) {
    let message = e.to_string();
    let prefix = e.prefix();
    assert!(
        message.starts_with(prefix),
        "{message:?} does not start with {prefix:?}"
    );
    let rest = &message[prefix.len()..];
    assert!(
        rest.is_empty()
            || rest.starts_with(':')
            || rest.starts_with(" (")
            || (matches!(e, Error::TooDeep { .. }) && rest.starts_with(" of ")),
        "prefix {prefix:?} not followed by `:`, ` (` or the end in {message:?}"
    );
    assert!(!e.code().is_empty());
    if let Some(at) = e.location() {
        let _ = at.to_string();
    }
}

fn gen_resolution_case(u: &mut Unstructured<'_>) -> AResult<ResolutionCase> {
    let mut templates = Vec::new();
    for _ in 0..u.int_in_range(1..=4)? {
        templates.push(gen_template(u)?);
    }
    let mut vertices = Vec::new();
    let n = u.int_in_range(1..=5)?;
    for _ in 0..n {
        vertices.push(gen_job_vertex(u)?);
    }
    let names: Vec<String> = vertices
        .iter()
        .filter_map(|v| v.get("name").and_then(Value::as_str).map(str::to_owned))
        .collect();
    let mut edges = Vec::new();
    for _ in 0..u.int_in_range(0..=5)? {
        let from = gen_endpoint(u, &names)?;
        let to = gen_endpoint(u, &names)?;
        edges.push(Value::String(format!("{from} -> {to}")));
    }
    let graph = json!({"vertices": vertices, "edges": edges});
    Ok(ResolutionCase {
        templates,
        graph,
        draft: u.ratio(1, 4)?,
    })
}

fn gen_endpoint(u: &mut Unstructured<'_>, names: &[String]) -> AResult<String> {
    let vertex = if !names.is_empty() && u.ratio(9, 10)? {
        u.choose(names)?.clone()
    } else {
        (*u.choose(NAMES)?).to_owned()
    };
    Ok(match u.int_in_range(0..=3)? {
        0 | 1 => vertex,
        _ => format!("{vertex}:{}", u.choose(PORTS)?),
    })
}

fn gen_job_vertex(u: &mut Unstructured<'_>) -> AResult<Value> {
    let name = *u.choose(NAMES)?;
    Ok(match u.int_in_range(0..=4)? {
        0 => json!({"type": "logs-iceberg-table-source", "name": name, "table": "logs"}),
        1 => json!({"type": "logs-sync-sink", "name": name}),
        _ => gen_operation(u, name)?,
    })
}

/// A `template-operation` vertex.
fn gen_operation(u: &mut Unstructured<'_>, name: &str) -> AResult<Value> {
    let mut op = json!({"type": "template-operation", "name": name,
                        "templateId": *u.choose(TEMPLATE_IDS)?});
    if u.ratio(1, 3)? {
        op["templateVersion"] = json!(u.int_in_range(1..=3)?);
    }
    match u.int_in_range(0..=5)? {
        0 => op["templateInputs"] = json!({"n": u.int_in_range(0..=4)?}),
        1 => op["templateInputs"] = json!({"q": "level:error"}),
        2 => op["templateInputs"] = json!({"n": "many"}),
        3 => op["templateInputs"] = json!({"draft": true}),
        _ => {}
    }
    if u.ratio(1, 4)? {
        op["draftMode"] = json!(true);
    }
    Ok(op)
}

fn gen_template(u: &mut Unstructured<'_>) -> AResult<Template> {
    let id = (*u.choose(&TEMPLATE_IDS[..3])?).to_owned();
    let version = u.int_in_range(1..=2)?;
    let input_schema = match u.int_in_range(0..=5)? {
        0 => None,
        1 => {
            Some(json!({"type": "object", "properties": {"n": {"type": "integer", "default": 1}}}))
        }
        2 => Some(
            json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}),
        ),
        3 => Some(json!({"type": 5})),
        4 => Some(
            json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": 0, "maximum": 3, "default": 2}},
                         "additionalProperties": false}),
        ),
        _ => Some(
            json!({"type": "object", "properties": {"draft": {"type": "boolean"}, "n": {"default": 0}}}),
        ),
    };
    let mut inputs = Vec::new();
    for _ in 0..u.int_in_range(0..=2)? {
        inputs.push((
            (*u.choose(&["input", "in2", "x"])?).to_owned(),
            gen_endpoint(u, &[])?,
        ));
    }
    let mut outputs = Vec::new();
    for _ in 0..u.int_in_range(0..=2)? {
        outputs.push((
            (*u.choose(&["output", "out2", "x"])?).to_owned(),
            gen_endpoint(u, &[])?,
        ));
    }
    let mut draft_outputs = Vec::new();
    if u.ratio(1, 3)? {
        draft_outputs.push(jobgraph_core::DraftOutput {
            name: (*u.choose(&["preview", "output"])?).to_owned(),
            description: String::new(),
            vertex: (*u.choose(&["preview", "a", "b", "a:output", "a b"])?).to_owned(),
        });
    }
    Ok(Template {
        id,
        version,
        name: "generated".into(),
        input_schema,
        template: gen_script(u)?,
        inputs: inputs.into_iter().collect(),
        outputs: outputs.into_iter().collect(),
        draft_outputs,
        ..Template::default()
    })
}

/// A script assembled from fragments.
fn gen_script(u: &mut Unstructured<'_>) -> AResult<String> {
    let mut s = String::from("const vertices = []; const edges = [];\n");
    for _ in 0..u.int_in_range(0..=6)? {
        let name = *u.choose(NAMES)?;
        let line = match u.int_in_range(0..=15)? {
            0 | 1 => format!("vertices.push({{type: 'logs-sync-sink', name: {name:?}}});"),
            2 => format!(
                "vertices.push({{type: 'logs-filter', name: {name:?}, query: {{type: 'simple-query', query: 'x'}}}});"
            ),
            3 => format!("vertices.push({{type: 'logs-filter', name: {name:?}}});"),
            4 | 5 => format!("vertices.push({});", gen_operation(u, name)?),
            6 => format!("edges.push({:?});", format!("{} -> {}", gen_endpoint(u, &[])?, gen_endpoint(u, &[])?)),
            7 => format!(
                "for (let i = 0; i < {}; i++) {{ vertices.push({{type: 'x', name: 'v' + i}}); }}",
                u.choose(&[0, 3, 60, 100_000])?
            ),
            8 => "while (true) {}".to_owned(),
            9 => format!("if (draft) {{ vertices.push({{type: 'logs-sample', name: 'preview'}}); edges.push({:?}); }}",
                format!("{name} -> preview")),
            10 => "throw new Error('boom');".to_owned(),
            11 => "function f(n) { return f(n + 1); } f(0);".to_owned(),
            12 => "for (let i = 0; i < (typeof n === 'number' ? Math.min(n, 5) : 1); i++) vertices.push({type: 'x', name: 'n' + i});".to_owned(),
            13 => format!("edges.push(user.getName() + ' -> ' + {name:?});"),
            14 => format!("vertices.push({{type: 'x', name: {name:?} + (typeof q === 'string' ? '' : '.d')}});"),
            _ => "vertices.push(...vertices.slice(0, 1));".to_owned(),
        };
        s.push_str(&line);
        s.push('\n');
    }
    s.push_str(match u.int_in_range(0..=11)? {
        0 => "JSON.stringify({vertices, edges})",
        1 => "null",
        2 => "({vertices: vertices.length, edges})",
        3 => "[vertices, edges]",
        4 => "({vertices, edges, extra: 1})",
        5 => "({vertices})",
        6 => "({vertices, edges",
        7 => "undefined",
        8 => "({vertices, edges: edges.concat([5])})",
        _ => "({vertices, edges})",
    });
    Ok(s)
}
