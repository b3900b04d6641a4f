//! Unit tests of the resolver: fetching, budgets, the execution cache.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use serde_json::json;

use super::*;
use crate::Template;
use crate::vertex::Vertex;
use crate::{FetchError, TemplateSet};

/// A source that answers only on the second poll and records every request.
struct LazySource {
    set: TemplateSet,
    requests: RefCell<Vec<(String, Option<u64>)>>,
}

struct Later(Option<Result<Template, FetchError>>, bool);

impl Future for Later {
    type Output = Result<Template, FetchError>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        if !self.1 {
            self.1 = true;
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        Poll::Ready(self.0.take().unwrap_or(Err(FetchError::NotFound)))
    }
}

impl TemplateSource for LazySource {
    fn fetch(
        &self,
        id: &str,
        version: Option<u64>,
    ) -> impl Future<Output = Result<Template, FetchError>> {
        self.requests.borrow_mut().push((id.to_owned(), version));
        Later(
            Some(
                self.set
                    .get(id, version)
                    .cloned()
                    .ok_or(FetchError::NotFound),
            ),
            false,
        )
    }
}

fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut cx = Context::from_waker(std::task::Waker::noop());
    loop {
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
    }
}

fn template(id: &str, script: &str) -> Template {
    Template {
        id: id.into(),
        version: 1,
        name: id.into(),
        template: script.into(),
        ..Default::default()
    }
}

#[test]
fn each_template_is_fetched_once_per_call_and_levels_fetch_together() {
    let leaf = template("leaf", "({vertices: [{type: 'x', name: 'v'}], edges: []})");
    let mid = template(
        "mid",
        "({vertices: [{type: 'template-operation', name: 'l1', templateId: 'leaf'}, \
                      {type: 'template-operation', name: 'l2', templateId: 'leaf'}], edges: []})",
    );
    let source = LazySource {
        set: [leaf, mid].into_iter().collect(),
        requests: RefCell::new(Vec::new()),
    };
    let graph: JobGraph = serde_json::from_value(json!({"vertices": [
        {"type": "template-operation", "name": "a", "templateId": "mid"},
        {"type": "template-operation", "name": "b", "templateId": "mid"},
        {"type": "template-operation", "name": "c", "templateId": "leaf"}
    ]}))
    .unwrap();
    let resolver = Resolver::new(source);
    let resolved = block_on(resolver.resolve(&graph)).unwrap();
    let names: Vec<_> = resolved.graph.vertices.iter().map(Vertex::name).collect();
    assert_eq!(names, ["a.l1.v", "a.l2.v", "b.l1.v", "b.l2.v", "c.v"]);
    // Level 1 asks for mid and leaf together; level 2 needs only leaf, already fetched.
    assert_eq!(
        *resolver.source().requests.borrow(),
        [("mid".to_owned(), None), ("leaf".to_owned(), None)]
    );
    // The blocking form waits for the same lazy source.
    resolver.cache().clear();
    let again = resolver.resolve_blocking(&graph).unwrap();
    assert_eq!(again, resolved);
}

/// Regression (fuzz target `resolution`): a template returning k operations of itself ran
/// k + k² + … scripts before the depth limit (k = 8: ~1.5e8 scripts); now the operations of
/// one resolution are counted per level, before that level's scripts run.
#[test]
fn fan_out_stops_at_the_operation_budget_before_running_the_level() {
    let fan = template(
        "fan",
        "({vertices: Array.from({length: 8}, (_, i) => \
             ({type: 'template-operation', name: 'f' + i, templateId: 'fan'})), edges: []})",
    );
    let set: TemplateSet = [fan].into_iter().collect();
    let graph: JobGraph = serde_json::from_value(json!({"vertices": [
        {"type": "template-operation", "name": "root", "templateId": "fan"}
    ]}))
    .unwrap();
    let resolver = Resolver::builder(set).max_operations(100).build();
    let err = resolver.resolve_blocking(&graph).unwrap_err();
    assert_eq!(err.code(), "MAX_OPERATIONS_EXCEEDED");
    // Levels: 1 + 8 + 64 = 73 operations ran; level 4 would add 512.
    assert_eq!(
        err.to_string(),
        "Too many template operations: expanding level 4 would bring the total to 585, more \
         than the maximum of 100 per resolution; raise `maxOperations` (CLI `--max-operations`) or \
         make the templates produce fewer operations (template fan@1, operation root > f0 > f0 > f0)"
    );
    assert!(err.to_string().starts_with(err.prefix()));
}

/// A job of three operations of `forty` (40 vertices each) beside a nested one: `nest` returns
/// one vertex and one operation of `forty` (not counted: it is replaced), so the templates
/// produce 4 × 40 + 1 = 161 vertices.
fn budget_case() -> (TemplateSet, JobGraph) {
    let forty = template(
        "forty",
        "({vertices: Array.from({length: 40}, (_, i) => ({type: 'x', name: 'v' + i})), \
          edges: []})",
    );
    let nest = template(
        "nest",
        "({vertices: [{type: 'x', name: 'n'}, \
           {type: 'template-operation', name: 'in', templateId: 'forty'}], edges: []})",
    );
    let set: TemplateSet = [forty, nest].into_iter().collect();
    let graph: JobGraph = serde_json::from_value(json!({"vertices": [
        {"type": "src", "name": "s"},
        {"type": "template-operation", "name": "deep", "templateId": "nest"},
        {"type": "template-operation", "name": "a", "templateId": "forty"},
        {"type": "template-operation", "name": "b", "templateId": "forty"},
        {"type": "template-operation", "name": "c", "templateId": "forty"}
    ]}))
    .unwrap();
    (set, graph)
}

#[test]
fn the_resolved_vertex_budget_counts_produced_vertices_and_stops_at_the_first_result_past_it() {
    let (set, graph) = budget_case();
    // Level 1: deep (1), a (41), b (81), c (121 > 120).
    let resolver = Resolver::builder(set.clone())
        .max_resolved_vertices(120)
        .build();
    let err = resolver.resolve_blocking(&graph).unwrap_err();
    assert_eq!(err.code(), "MAX_RESOLVED_VERTICES_EXCEEDED");
    assert_eq!(
        err.to_string(),
        "Resolved graph too large: with this operation's result (level 1) the templates have \
         produced 121 vertices, more than the maximum of 120 per resolution; raise \
         `maxResolvedVertices` (CLI `--max-resolved-vertices`) or make the templates produce \
         less (template forty@1, operation c)"
    );
    assert!(err.to_string().starts_with(err.prefix()));
    // Exactly at the budget: 161 produced vertices, the job's own `s` not counted.
    let resolver = Resolver::builder(set).max_resolved_vertices(161).build();
    let resolved = resolver.resolve_blocking(&graph).unwrap();
    assert_eq!(resolved.provenance.len(), 161);
    assert_eq!(resolved.graph.vertices.len(), 162);
}

#[test]
fn the_resolved_byte_budget_counts_each_result_as_compact_json() {
    let one = "({vertices: [{type: 'x', name: 'v'}], edges: []})";
    // `{"vertices":[{"type":"x","name":"v"}],"edges":[]}`: 49 bytes per result.
    let set: TemplateSet = [template("one", one)].into_iter().collect();
    let graph: JobGraph = serde_json::from_value(json!({"vertices": [
        {"type": "template-operation", "name": "a", "templateId": "one"},
        {"type": "template-operation", "name": "b", "templateId": "one"},
        {"type": "template-operation", "name": "c", "templateId": "one"}
    ]}))
    .unwrap();
    let resolver = Resolver::builder(set.clone())
        .max_resolved_bytes(3 * 49 - 1)
        .build();
    let err = resolver.resolve_blocking(&graph).unwrap_err();
    assert_eq!(err.code(), "MAX_RESOLVED_BYTES_EXCEEDED");
    assert_eq!(
        err.to_string(),
        "Resolved graph too large: with this operation's result (level 1) the templates have \
         produced 147 bytes of JSON, more than the maximum of 146 per resolution; raise \
         `maxResolvedBytes` (CLI `--max-resolved-bytes`) or make the templates produce less \
         (template one@1, operation c)"
    );
    // Cache hits count too: the second and third results came from the first's execution.
    assert_eq!(resolver.cache().stats().hits, 2);
    let resolver = Resolver::builder(set).max_resolved_bytes(3 * 49).build();
    assert_eq!(
        resolver.resolve_blocking(&graph).unwrap().provenance.len(),
        3
    );
}

#[test]
fn a_whole_resolution_stops_at_its_time_limit_naming_the_running_operation() {
    // Every script spins 150 ms of its 1 s limit; the resolution may take 400 ms in all.
    let spin = "let t = Date.now(); while (Date.now() - t < 150) {} \
                ({vertices: [{type: 'x', name: 'v'}], edges: []})";
    let set: TemplateSet = [template("slow", spin)].into_iter().collect();
    let vertices: Vec<Value> = (0..10)
        .map(|i| {
            json!({"type": "template-operation", "name": format!("op{i}"),
                   "templateId": "slow", "templateVersion": 1})
        })
        .collect();
    let graph: JobGraph =
        serde_json::from_value(json!({"vertices": vertices, "edges": []})).unwrap();
    let limits = Limits {
        resolution_timeout_ms: 400,
        ..Limits::default()
    };
    let resolver = Resolver::builder(set)
        .limits(limits)
        .cache(ExecutionCache::disabled())
        .build();
    let started = std::time::Instant::now();
    let err = resolver.resolve_blocking(&graph).unwrap_err();
    let elapsed = started.elapsed();
    assert_eq!(err.code(), "SCRIPT_FAILED");
    let failure = err.script_failure().unwrap();
    assert_eq!(
        failure.limit,
        Some(limits.hit(crate::LimitKind::ResolutionTime))
    );
    let message = err.to_string();
    assert!(
        message
            .starts_with("JavaScript execution failed: resolution time limit of 400 ms exceeded"),
        "{message}"
    );
    assert!(message.contains("--resolution-timeout-ms"), "{message}");
    // The third script (op2) was running when 400 ms passed (op1 on a very slow machine).
    assert!(
        message.ends_with("(template slow@1, operation op2)")
            || message.ends_with("(template slow@1, operation op1)"),
        "{message}"
    );
    // Not every script ran (10 × 150 ms).
    assert!(
        elapsed < std::time::Duration::from_millis(1500),
        "{elapsed:?}"
    );
}

fn job_of(count: usize, level: &str) -> JobGraph {
    let vertices: Vec<_> = (0..count)
        .map(|i| {
            json!({"type": "template-operation", "name": format!("op{i}"), "templateId": "t",
                   "templateInputs": {"level": if i == 0 { level } else { "info" }}})
        })
        .collect();
    serde_json::from_value(json!({"vertices": vertices, "edges": []})).unwrap()
}

fn level_template(script: &str) -> TemplateSet {
    [Template {
        id: "t".into(),
        version: 1,
        template: script.into(),
        input_schema: Some(json!({"type": "object", "properties": {"level": {"type": "string"}}})),
        ..Default::default()
    }]
    .into_iter()
    .collect()
}

/// Editing one operation's inputs re-runs that operation's script only; the other results
/// come from the cache, and the output is what a fresh resolver gives.
#[test]
fn re_resolution_after_one_edit_runs_one_script() {
    let set = level_template("({vertices: [{type: 'x', name: 'v_' + level}], edges: []})");
    let resolver = Resolver::new(set.clone());
    resolver.resolve_blocking(&job_of(50, "info")).unwrap();
    assert_eq!(
        resolver.cache().stats().misses,
        1,
        "49 identical operations"
    );
    let before = resolver.cache().stats();
    let edited = resolver.resolve_blocking(&job_of(50, "warn")).unwrap();
    let after = resolver.cache().stats();
    assert_eq!(after.misses - before.misses, 1);
    assert_eq!(after.hits - before.hits, 49);
    let fresh = Resolver::builder(set)
        .cache(ExecutionCache::disabled())
        .build()
        .resolve_blocking(&job_of(50, "warn"))
        .unwrap();
    assert_eq!(edited, fresh);
    assert_eq!(edited.graph.vertices[0].name(), "op0.v_warn");
}

/// Scripts that read the clock or `Math.random` run every time.
#[test]
fn nondeterministic_scripts_are_not_cached() {
    for script in [
        "({vertices: [{type: 'x', name: 'v' + Math.floor(Math.random() * 0)}], edges: []})",
        "({vertices: [{type: 'x', name: 'v' + (Date.now() > 0)}], edges: []})",
        "({vertices: [{type: 'x', name: 'v' + (new Date().getFullYear() > 0)}], edges: []})",
    ] {
        let resolver = Resolver::new(level_template(script));
        resolver.resolve_blocking(&job_of(3, "info")).unwrap();
        let stats = resolver.cache().stats();
        assert_eq!(
            (stats.hits, stats.misses, stats.entries),
            (0, 3, 0),
            "{script}"
        );
    }
    // `new Date(0)` reads no clock.
    let resolver = Resolver::new(level_template(
        "({vertices: [{type: 'x', name: 'y' + new Date(0).getUTCFullYear()}], edges: []})",
    ));
    resolver.resolve_blocking(&job_of(3, "info")).unwrap();
    assert_eq!(resolver.cache().stats().hits, 2);
}

/// The key covers the user, draft mode and the template's source: a change of any of them
/// runs the script again.
#[test]
fn cache_key_covers_user_draft_and_source() {
    let script =
        "({vertices: [{type: 'x', name: user.getName() + (draft ? '_d' : '')}], edges: []})";
    let cache = ExecutionCache::new(CacheLimits::default());
    let run = |set: TemplateSet, user: &str, draft: bool| {
        Resolver::builder(set)
            .user(user)
            .draft(draft)
            .cache(cache.clone())
            .build()
            .resolve_blocking(&job_of(1, "info"))
            .unwrap()
            .graph
            .vertices[0]
            .name()
            .to_owned()
    };
    assert_eq!(run(level_template(script), "ada", false), "op0.ada");
    assert_eq!(run(level_template(script), "bob", false), "op0.bob");
    assert_eq!(run(level_template(script), "ada", true), "op0.ada_d");
    let changed = format!("{};", script.trim_end());
    assert_eq!(run(level_template(&changed), "ada", false), "op0.ada");
    assert_eq!(cache.stats().misses, 4);
    assert_eq!(run(level_template(script), "ada", false), "op0.ada");
    assert_eq!(cache.stats().hits, 1);
}

#[test]
fn inputs_that_would_hide_a_standard_global_are_refused() {
    let mut t = template(
        "t",
        "({vertices: [{type: 'x', name: String(Math.PI)}], edges: []})",
    );
    let set: TemplateSet = [t.clone()].into_iter().collect();
    let graph: JobGraph = serde_json::from_value(json!({"vertices": [
        {"type": "template-operation", "name": "op", "templateId": "t",
         "templateInputs": {"Math": {"PI": 3}, "undefined": 1, "ok": 2}}
    ]}))
    .unwrap();
    let err = Resolver::new(set).resolve_blocking(&graph).unwrap_err();
    assert_eq!(err.code(), "INPUT_VALIDATION_FAILED");
    let pointers: Vec<_> = err.problems().iter().map(|p| p.pointer.as_str()).collect();
    assert_eq!(pointers, ["/Math", "/undefined"]);
    assert!(
        err.to_string()
            .contains("`Math` would hide the standard global `Math` from the script"),
        "{err}"
    );

    // A schema that declares such a property is a broken template.
    t.input_schema = Some(json!({"type": "object", "properties": {"JSON": {"type": "string"}}}));
    let set: TemplateSet = [t].into_iter().collect();
    let graph: JobGraph = serde_json::from_value(json!({"vertices": [
        {"type": "template-operation", "name": "op", "templateId": "t"}
    ]}))
    .unwrap();
    let err = Resolver::new(set).resolve_blocking(&graph).unwrap_err();
    assert_eq!(err.code(), "INVALID_TEMPLATE");
    assert!(
        err.to_string().contains("declares the property \"JSON\""),
        "{err}"
    );
}

/// Two distinct job edges rewired onto one wire (`src -> op` and `src -> op:input`, the
/// template mapping `input`) give one edge in the resolved graph, not a duplicate.
#[test]
fn edges_rewired_onto_one_wire_are_kept_once() {
    let mut t = template("t", "({vertices: [{type: 'x', name: 'f'}], edges: []})");
    t.inputs.insert("input".into(), "f".into());
    t.outputs.insert("output".into(), "f".into());
    let mut set = TemplateSet::new();
    set.insert(t);
    let job = json!({
        "vertices": [
            {"type": "x", "name": "src"},
            {"type": "template-operation", "name": "op", "templateId": "t"},
            {"type": "x", "name": "sink"}
        ],
        "edges": ["src -> op", "src -> op:input", "op -> sink"]
    });
    let resolved = Resolver::new(set)
        .resolve_document_blocking(&job)
        .unwrap()
        .document;
    assert_eq!(resolved["edges"], json!(["src -> op.f", "op.f -> sink"]));
    assert!(crate::validate_job_graph(&resolved).is_empty());
}
