//! The sandbox worker a library user runs without the `jobgraph` binary: this crate's
//! `jobgraph-sandbox-worker`, which is also the pattern for a program of one's own (a counting
//! allocator and `sandbox_worker::serve()`). Scripts run through it under every limit.

use std::path::PathBuf;
use std::sync::Arc;

use jobgraph_core::{LimitKind, Limits, Resolver, Template, TemplateSet};
use jobgraph_sdk::{ProcessConfig, ProcessSandbox};
use serde_json::json;

fn sandbox() -> Arc<ProcessSandbox> {
    Arc::new(ProcessSandbox::start(ProcessConfig {
        workers: 1,
        ..ProcessConfig::new(
            PathBuf::from(env!("CARGO_BIN_EXE_jobgraph-sandbox-worker")),
            vec![],
        )
    }))
}

fn template(script: &str) -> TemplateSet {
    let template = Template {
        id: "t".into(),
        version: 1,
        name: "t".into(),
        template: script.to_owned(),
        input_schema: Some(json!({"type": "object"})),
        ..Default::default()
    };
    [template].into_iter().collect()
}

fn job() -> serde_json::Value {
    json!({"vertices": [{"type": "template-operation", "name": "op",
        "templateId": "t", "templateInputs": {}}], "edges": []})
}

fn limits() -> Limits {
    Limits {
        timeout_ms: 500,
        max_memory_bytes: 32 << 20,
        ..Limits::default()
    }
}

fn resolve(
    sandbox: &Arc<ProcessSandbox>,
    script: &str,
) -> Result<serde_json::Value, jobgraph_core::Error> {
    let resolver = Resolver::builder(template(script))
        .sandbox(Arc::clone(sandbox))
        .limits(limits())
        .build();
    resolver
        .resolve_document_blocking(&job())
        .map(|r| r.document)
}

#[test]
fn a_script_runs_in_the_sdk_worker() {
    let sandbox = sandbox();
    let out = resolve(
        &sandbox,
        "({vertices: [{type: 'logs-filter', name: 'f', query: {type: 'simple-query', query: 'x'}}], edges: []})",
    )
    .expect("resolves");
    assert_eq!(out["vertices"][0]["name"], "op.f", "{out}");
}

#[test]
fn the_sdk_worker_enforces_time_and_memory_and_recovers() {
    let sandbox = sandbox();
    let err = resolve(&sandbox, "while (true) {}").expect_err("stopped");
    assert_eq!(
        err.script_failure()
            .and_then(|f| f.limit)
            .map(|hit| hit.kind),
        Some(LimitKind::Time),
        "{err}"
    );
    let err = resolve(
        &sandbox,
        "let a = []; while (true) a.push('x'.repeat(1 << 16));",
    )
    .expect_err("stopped");
    assert_eq!(
        err.script_failure()
            .and_then(|f| f.limit)
            .map(|hit| hit.kind),
        Some(LimitKind::Memory),
        "{err}"
    );
    // The pool replaced whatever it had to: the next script runs.
    resolve(&sandbox, "({vertices: [], edges: []})").expect("a script after the bombs");
}

#[test]
fn the_sdk_worker_refuses_arguments() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_jobgraph-sandbox-worker"))
        .arg("--help")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("takes no arguments"));
}
