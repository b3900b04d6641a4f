//! `resolution`: generated templates and job graphs resolved with tight limits.

use std::collections::HashSet;

use arbitrary::{Result as AResult, Unstructured};
use jobgraph_core::{
    Error, ExecutionCache, JobGraph, Limits, ResolveOptions, Resolver, Template, TemplateSet,
    format_edge, parse_edge, validate_job_graph,
};
use serde_json::{Map, Value, json};

use super::graph_validation::{NAMES, PORTS};

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
        ..ResolveOptions::default()
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
