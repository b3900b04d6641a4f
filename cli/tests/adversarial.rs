//! The adversarial corpus (`tests/adversarial/cases.json`) through both execution modes.
//!
//! Every case runs as template `adv@1` behind a template operation named `op`, with the case's
//! limits. In-process, cases marked `isolated-only` are skipped (they would hang or abort the
//! process: see docs/sandbox.md); the isolated mode runs all of them and must stop each within
//! 1.5× its time limit and within its memory cap plus the worker's headroom. Each test writes
//! `target/adversarial/<mode>.json` (case, outcome, time, peak memory) for the table in
//! docs/sandbox.md (`node scripts/adversarial-table.mjs`).

#[path = "common/corpus.rs"]
mod corpus;

use corpus::{corpus_dir, corpus_json, schema_json};
use std::path::{Path, PathBuf};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use jobgraph_core::memory::CountingAllocator;
use std::sync::Arc;

use jobgraph_core::{
    Error, ExecutionCache, InProcess, LimitKind, Limits, Resolver, Sandbox, Template, TemplateSet,
};
use jobgraph_sdk::sandbox_worker::ADDRESS_SPACE_HEADROOM;
use jobgraph_sdk::{ProcessConfig, ProcessSandbox};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

#[global_allocator]
static ALLOCATOR: CountingAllocator<std::alloc::System> =
    CountingAllocator::new(std::alloc::System);

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Case {
    name: String,
    category: String,
    script: Scripts,
    /// Inline, or the path of a JSON file in the corpus folder (large values).
    #[serde(default)]
    inputs: Value,
    /// The template's `inputSchema` (default `{"type": "object"}`): inline or a file's path.
    #[serde(default)]
    input_schema: Option<Value>,
    #[serde(default)]
    limits: Map<String, Value>,
    expect: Expect,
    #[serde(default)]
    in_process: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
enum Scripts {
    One(String),
    Sequence(Vec<String>),
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Expect {
    limit: Option<String>,
    error: Option<String>,
    message_contains: Option<String>,
    output: Option<Value>,
}

/// One row of the report.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Row {
    name: String,
    category: String,
    mode: String,
    /// `limit:<kind>`, `error:<CODE>`, `ok`, `skipped` or `hung`.
    outcome: String,
    ms: f64,
    peak_bytes: u64,
    pass: bool,
    detail: String,
}

fn load_cases() -> Vec<Case> {
    let text = std::fs::read_to_string(corpus_dir().join("cases.json")).expect("cases.json");
    let cases: Vec<Case> = serde_json::from_str(&text).expect("cases.json is valid");
    assert!(cases.len() >= 50, "the corpus has {} cases", cases.len());
    cases
}

fn limits_of(case: &Case) -> Limits {
    let mut value = serde_json::to_value(Limits::default()).expect("limits serialize");
    if let Value::Object(map) = &mut value {
        for (k, v) in &case.limits {
            map.insert(k.clone(), v.clone());
        }
    }
    serde_json::from_value(value).expect("case limits are valid")
}

fn scripts(case: &Case) -> Vec<String> {
    let paths = match &case.script {
        Scripts::One(p) => vec![p.clone()],
        Scripts::Sequence(ps) => ps.clone(),
    };
    paths
        .iter()
        .map(|p| std::fs::read_to_string(corpus_dir().join(p)).expect("script exists"))
        .collect()
}

/// Resolves a one-operation job whose template runs `script`.
fn resolve_one(
    sandbox: &Arc<dyn Sandbox>,
    script: &str,
    case: &Case,
    limits: &Limits,
) -> Result<Value, Error> {
    let template = Template {
        id: "adv".into(),
        version: 1,
        name: case.name.clone(),
        template: script.to_owned(),
        input_schema: Some(schema_json(case.input_schema.as_ref())),
        ..Default::default()
    };
    let templates: TemplateSet = [template].into_iter().collect();
    let job = json!({
        "vertices": [{"type": "template-operation", "name": "op", "templateId": "adv",
                      "templateInputs": corpus_json(&case.inputs)}],
        "edges": []
    });
    Resolver::builder(templates)
        .shared_sandbox(Arc::clone(sandbox))
        .limits(*limits)
        .cache(ExecutionCache::disabled())
        .build()
        .resolve_document_blocking(&job)
        .map(|resolved| resolved.document)
}

/// The resolved graph with the `op.` prefix taken off again: what the script returned.
fn unprefixed(mut graph: Value) -> Value {
    let strip = |s: &str| s.strip_prefix("op.").unwrap_or(s).to_owned();
    if let Some(vertices) = graph.get_mut("vertices").and_then(Value::as_array_mut) {
        for v in vertices {
            if let Some(name) = v.get("name").and_then(Value::as_str).map(strip) {
                v["name"] = Value::String(name);
            }
        }
    }
    if let Some(edges) = graph.get_mut("edges").and_then(Value::as_array_mut) {
        for e in edges {
            if let Some(text) = e.as_str() {
                let parts: Vec<String> = text.split(" -> ").map(strip).collect();
                *e = Value::String(parts.join(" -> "));
            }
        }
    }
    graph
}

fn outcome_of(result: &Result<Value, Error>) -> String {
    match result {
        Ok(_) => "ok".into(),
        Err(e) => match e.script_failure().and_then(|f| f.limit) {
            Some(hit) => format!(
                "limit:{}",
                serde_json::to_value(hit.kind)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default()
            ),
            None => format!("error:{}", e.code()),
        },
    }
}

/// Checks a result against the case's expectation; `Err` says what differs.
fn check(case: &Case, limits: &Limits, result: &Result<Value, Error>) -> Result<(), String> {
    let expect = &case.expect;
    if let Some(kind) = &expect.limit {
        let err = result
            .as_ref()
            .err()
            .ok_or_else(|| format!("expected the {kind} limit, the script succeeded"))?;
        let message = err.to_string();
        let parsed: LimitKind = serde_json::from_value(json!(kind))
            .map_err(|e| format!("the case names an unknown limit: {e}"))?;
        let hit = limits.hit(parsed);
        let wanted = format!("JavaScript execution failed: {hit}");
        if !message.starts_with(&wanted) {
            return Err(format!("expected `{wanted}…`, got `{message}`"));
        }
        if !message.ends_with("(template adv@1, operation op)") {
            return Err(format!("the message does not say where: `{message}`"));
        }
        if err.script_failure().and_then(|f| f.limit) != Some(hit) {
            return Err(format!("limit field is {}", outcome_of(result)));
        }
    } else if let Some(code) = &expect.error {
        let err = result
            .as_ref()
            .err()
            .ok_or_else(|| format!("expected {code}, the script succeeded"))?;
        if err.code() != code {
            return Err(format!("expected {code}, got {}: {err}", err.code()));
        }
        if let Some(part) = &expect.message_contains
            && !err.to_string().contains(part.as_str())
        {
            return Err(format!("message lacks `{part}`: {err}"));
        }
    } else if let Some(output) = &expect.output {
        match result {
            Ok(graph) if &unprefixed(graph.clone()) == output => {}
            Ok(graph) => return Err(format!("output differs: {graph}")),
            Err(e) => return Err(format!("expected output, got {e}")),
        }
    } else {
        return Err("the case has no expectation".into());
    }
    Ok(())
}

/// Runs every script of a case (all but the last must not stop the sandbox) and checks the last.
fn run_case(
    sandbox: &Arc<dyn Sandbox>,
    case: &Case,
    limits: &Limits,
) -> (Result<Value, Error>, Duration) {
    let scripts = scripts(case);
    let (last, before) = scripts.split_last().expect("at least one script");
    for script in before {
        let _ = resolve_one(sandbox, script, case, limits);
    }
    let started = Instant::now();
    let result = resolve_one(sandbox, last, case, limits);
    (result, started.elapsed())
}

fn write_report(mode: &str, rows: &[Row]) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/adversarial");
    let _ = std::fs::create_dir_all(&dir);
    let text = serde_json::to_string_pretty(rows).unwrap_or_default();
    let _ = std::fs::write(dir.join(format!("{mode}.json")), text);
}

fn finish(mode: &str, rows: &[Row]) {
    write_report(mode, rows);
    let failures: Vec<String> = rows
        .iter()
        .filter(|r| !r.pass)
        .map(|r| format!("{} ({}): {}", r.name, r.outcome, r.detail))
        .collect();
    let ran = rows.iter().filter(|r| r.outcome != "skipped").count();
    eprintln!("{mode}: {ran} cases run, {} failed", failures.len());
    assert!(
        failures.is_empty(),
        "{mode}: {} of {} cases failed:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}

#[test]
fn corpus_in_process() {
    let cases = load_cases();
    let mut rows = Vec::new();
    for case in cases {
        let limits = limits_of(&case);
        if let Some(reason) = &case.in_process {
            rows.push(Row {
                name: case.name.clone(),
                category: case.category.clone(),
                mode: "in-process".into(),
                outcome: "skipped".into(),
                ms: 0.0,
                peak_bytes: 0,
                pass: reason.starts_with("isolated-only"),
                detail: reason.clone(),
            });
            continue;
        }
        // Each case on its own thread, so that a case that hangs is reported instead of
        // hanging the test (the thread is abandoned).
        let (send, receive) = channel();
        let job = case.clone();
        let _ = std::thread::Builder::new()
            .stack_size(8 * 1024 * 1024)
            .spawn(move || {
                jobgraph_core::memory::reset_peak();
                let before = jobgraph_core::memory::live_bytes();
                let in_process: Arc<dyn Sandbox> = Arc::new(InProcess);
                let (result, elapsed) = run_case(&in_process, &job, &limits);
                let peak = jobgraph_core::memory::peak_bytes().saturating_sub(before);
                let _ = send.send((result, elapsed, u64::try_from(peak).unwrap_or(0)));
            });
        let patience =
            Duration::from_millis(limits.timeout_ms.saturating_mul(20)) + Duration::from_secs(20);
        let row = match receive.recv_timeout(patience) {
            Ok((result, elapsed, peak)) => {
                let verdict = check(&case, &limits, &result);
                Row {
                    name: case.name.clone(),
                    category: case.category.clone(),
                    mode: "in-process".into(),
                    outcome: outcome_of(&result),
                    ms: elapsed.as_secs_f64() * 1000.0,
                    peak_bytes: peak,
                    pass: verdict.is_ok(),
                    detail: verdict.err().unwrap_or_default(),
                }
            }
            Err(_) => Row {
                name: case.name.clone(),
                category: case.category.clone(),
                mode: "in-process".into(),
                outcome: "hung".into(),
                ms: patience.as_secs_f64() * 1000.0,
                peak_bytes: 0,
                pass: false,
                detail: format!("no answer after {patience:?}"),
            },
        };
        rows.push(row);
    }
    finish("in-process", &rows);
}

#[test]
fn corpus_isolated() {
    let cases = load_cases();
    let config = ProcessConfig {
        workers: 1,
        ..ProcessConfig::new(
            PathBuf::from(env!("CARGO_BIN_EXE_jobgraph")),
            vec!["sandbox-worker".into()],
        )
    };
    let pool = Arc::new(ProcessSandbox::start(config));
    let sandbox: Arc<dyn Sandbox> = pool.clone();
    let mut rows = Vec::new();
    for case in cases {
        let limits = limits_of(&case);
        let (result, elapsed) = run_case(&sandbox, &case, &limits);
        let stats = pool.last_stats();
        let mut verdict = check(&case, &limits, &result);
        let allowed = Duration::from_millis(limits.timeout_ms * 3 / 2);
        if verdict.is_ok() && elapsed > allowed {
            verdict = Err(format!("took {elapsed:?}, more than 1.5× the time limit"));
        }
        let memory_allowed = limits.max_memory_bytes + ADDRESS_SPACE_HEADROOM;
        if verdict.is_ok() && stats.peak_bytes > memory_allowed {
            verdict = Err(format!(
                "peak {} bytes, more than the cap plus headroom ({memory_allowed})",
                stats.peak_bytes
            ));
        }
        rows.push(Row {
            name: case.name.clone(),
            category: case.category.clone(),
            mode: "isolated".into(),
            outcome: outcome_of(&result),
            ms: elapsed.as_secs_f64() * 1000.0,
            peak_bytes: stats.peak_bytes,
            pass: verdict.is_ok(),
            detail: verdict.err().unwrap_or_default(),
        });
    }
    // The host is still serving: a normal script after the whole corpus.
    let ok = resolve_one(
        &sandbox,
        "({vertices: [{type: 'x', name: 'after'}], edges: []})",
        &load_cases()[0],
        &Limits::default(),
    );
    assert!(ok.is_ok(), "{ok:?}");
    finish("isolated", &rows);
}
