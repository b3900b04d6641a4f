//! `job:run`, `job:draft` and `query:check` as a user runs them: the real binary, real files.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

#[path = "pipeline_cli/patterns.rs"]
mod patterns;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn jobgraph(args: &[&str]) -> Output {
    jobgraph_with_stdin(args, "")
}

fn jobgraph_with_stdin(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_jobgraph"))
        .args(args)
        .current_dir(root())
        .env("USER", "cli-tester")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut input = child.stdin.take().expect("stdin");
    input.write_all(stdin.as_bytes()).expect("stdin written");
    drop(input);
    child.wait_with_output().expect("the binary ends")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn sample() -> Vec<Value> {
    std::fs::read_to_string(root().join("examples/events/sample.ndjson"))
        .expect("sample events")
        .lines()
        .map(|l| serde_json::from_str(l).expect("sample line is JSON"))
        .collect()
}

fn tag<'a>(event: &'a Value, key: &str) -> Vec<&'a str> {
    event["tags"][key]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

#[test]
fn job_run_prints_what_reaches_the_sink_in_input_order() {
    let out = jobgraph(&[
        "job:run",
        "examples/jobs/errors-to-vendor.json",
        "--events",
        "examples/events/sample.ndjson",
        "--templates",
        "examples/templates",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let printed: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("NDJSON line"))
        .collect();
    // The example's filter, written out here: warn or error, and not the healthcheck service.
    let expected: Vec<Value> = sample()
        .iter()
        .filter(|e| {
            tag(e, "level")
                .iter()
                .any(|l| *l == "warn" || *l == "error")
                && !tag(e, "service").contains(&"healthcheck")
        })
        .map(|e| e["id"].clone())
        .collect();
    let ids: Vec<Value> = printed.iter().map(|e| e["id"].clone()).collect();
    assert!(!ids.is_empty());
    assert_eq!(ids, expected);
    for event in &printed {
        assert_eq!(tag(event, "env"), ["production"]);
        assert_eq!(tag(event, "pipeline"), ["vendor-export"]);
        assert_eq!(tag(event, "enrichedBy"), ["cli-tester"]);
    }
    let stderr = text(&out.stderr);
    assert!(
        !stderr.contains("not simulated"),
        "without --draft every stage is simulated: {stderr}"
    );
    assert!(stderr.contains("events read"), "progress line: {stderr}");
    // -q: nothing but the result.
    let quiet = jobgraph(&[
        "job:run",
        "examples/jobs/errors-to-vendor.json",
        "--events",
        "examples/events/sample.ndjson",
        "-t",
        "examples/templates",
        "-q",
    ]);
    assert!(quiet.status.success());
    assert_eq!(text(&quiet.stderr), "");
    assert_eq!(quiet.stdout, out.stdout);
}

#[test]
fn job_run_reads_stdin_and_picks_a_sink() {
    let graph = r#"{"vertices": [
        {"type": "logs-iceberg-table-source", "name": "in", "table": "t"},
        {"type": "logs-filter", "name": "errors", "query": {"type": "datadog-query", "predicate": "error"}},
        {"type": "geoip-parser", "name": "parse", "sources": ["network.client.ip"]},
        {"type": "logs-sync-sink", "name": "all"},
        {"type": "logs-sync-sink", "name": "bad"}],
      "edges": ["in -> parse", "parse -> all", "in -> errors", "errors -> bad"]}"#;
    let dir = std::env::temp_dir().join(format!("jobgraph-pipeline-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let job = dir.join("job.json");
    std::fs::write(&job, graph).expect("job written");
    let job = job.to_string_lossy().into_owned();
    let events =
        "{\"id\":\"a\",\"message\":\"an error here\"}\n{\"id\":\"b\",\"message\":\"fine\"}\n";

    let several = jobgraph_with_stdin(&["job:run", &job, "--events", "-"], events);
    assert_eq!(several.status.code(), Some(2));
    assert!(
        text(&several.stderr).contains("the job has 2 sinks: choose one with --sink (all, bad)"),
        "{}",
        text(&several.stderr)
    );

    let bad = jobgraph_with_stdin(
        &["job:run", &job, "--events", "-", "--sink", "bad", "-q"],
        events,
    );
    assert!(bad.status.success(), "{}", text(&bad.stderr));
    assert_eq!(
        text(&bad.stdout),
        "{\"id\":\"a\",\"message\":\"an error here\"}\n"
    );

    let all = jobgraph_with_stdin(&["job:run", &job, "--events", "-", "--sink", "all"], events);
    assert_eq!(text(&all.stdout), events);
    assert!(
        text(&all.stderr).contains("note: vertex parse (geoip-parser) is not simulated: its 2 events passed through unchanged"),
        "{}",
        text(&all.stderr)
    );

    let unknown = jobgraph_with_stdin(
        &["job:run", &job, "--events", "-", "--sink", "nope"],
        events,
    );
    assert_eq!(unknown.status.code(), Some(2));
    assert!(text(&unknown.stderr).contains("--sink nope: no such sink; the job's sinks: all, bad"));

    let broken = jobgraph_with_stdin(
        &["job:run", &job, "--events", "-", "--sink", "all"],
        "{\"id\":\"a\"}\n{\"tags\":{\"k\":\"v\"}}\n",
    );
    assert_eq!(broken.status.code(), Some(2));
    assert!(
        text(&broken.stderr).contains("Invalid events: line 2: tags.k must be an array of strings"),
        "{}",
        text(&broken.stderr)
    );
    assert_eq!(
        text(&broken.stdout),
        "",
        "nothing is printed from a partial input"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn job_run_without_templates_names_the_way_out() {
    let out = jobgraph(&[
        "job:run",
        "examples/jobs/errors-to-vendor.json",
        "--events",
        "examples/events/sample.ndjson",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("give --templates DIR"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn job_draft_shows_every_stage_grouped_by_operation() {
    let out = jobgraph(&[
        "job:draft",
        "examples/jobs/errors-to-vendor.json",
        "--sample-logs",
        "examples/events/sample.ndjson",
        "-t",
        "examples/templates",
        "-f",
        "pretty",
        "--keep",
        "3",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stages: Vec<Value> = serde_json::from_slice(&out.stdout).expect("JSON");
    let by_name = |name: &str| {
        stages
            .iter()
            .find(|s| s["vertex"] == name)
            .unwrap_or_else(|| panic!("stage {name}"))
    };
    let filter = by_name("export.severity.filter");
    assert_eq!(filter["operation"], "export > severity");
    assert_eq!(filter["in"], 300);
    let kept = filter["out"].as_u64().unwrap_or_default();
    assert_eq!(filter["dropped"].as_u64().unwrap_or_default() + kept, 300);
    assert_eq!(filter["events"].as_array().map(Vec::len), Some(3));
    assert_eq!(
        filter["droppedEvents"][0]["droppedBy"],
        "export.severity.filter"
    );
    let tag = by_name("export.enrich.tag");
    assert_eq!(
        tag["events"][0]["change"]["added"]["pipeline"][0],
        "vendor-export"
    );
    let preview = by_name("export.enrich.preview");
    assert_eq!(
        preview["simulated"], false,
        "the draft-only vertex is there and not simulated"
    );
}

#[test]
fn query_check_prints_the_tree_or_a_caret() {
    let ok = jobgraph(&["query:check", "level:error -service:health*"]);
    assert!(ok.status.success());
    let tree: Value = serde_json::from_slice(&ok.stdout).expect("JSON tree");
    assert_eq!(tree["kind"], "and");
    assert_eq!(tree["items"][1]["kind"], "not");
    let bad = jobgraph(&["query:check", "(level:error (service:web"]);
    assert_eq!(bad.status.code(), Some(1));
    assert_eq!(
        text(&bad.stderr),
        "Invalid query: unbalanced parenthesis: `(` at column 14 is never closed\n  (level:error (service:web\n               ^\n"
    );
}

/// The public documentation's example shapes (examples/public): `resolve` accepts each
/// unchanged, and a run of the lake query's predicate on events keeps what it says.
#[test]
fn public_example_jobs_resolve_unchanged_and_their_predicates_run() {
    for file in [
        "agent-to-lake.json",
        "reference-pipeline.json",
        "lake-query.json",
    ] {
        let path = format!("examples/public/{file}");
        let out = jobgraph(&["resolve", &path, "--templates", "examples/templates"]);
        assert!(
            out.status.success(),
            "{file}: resolve failed: {}",
            text(&out.stderr)
        );
        let resolved: Value = serde_json::from_slice(&out.stdout).expect("resolve prints JSON");
        let written: Value =
            serde_json::from_str(&std::fs::read_to_string(root().join(&path)).unwrap()).unwrap();
        assert_eq!(
            resolved["jobGraph"], written["jobGraph"],
            "{file}: a graph without templates resolves to itself"
        );
    }

    // The lake query's `and-predicate`: `service:api status:error` and at least 40 characters.
    let long = "x".repeat(40);
    let events = [
        serde_json::json!({"id": "hit", "message": long, "tags": {"service": ["api"], "status": ["error"]}}),
        serde_json::json!({"id": "short", "message": "too short", "tags": {"service": ["api"], "status": ["error"]}}),
        serde_json::json!({"id": "other", "message": long, "tags": {"service": ["web"], "status": ["error"]}}),
    ];
    let ndjson: String = events.iter().map(|e| format!("{e}\n")).collect();
    let out = jobgraph_with_stdin(
        &[
            "job:run",
            "examples/public/lake-query.json",
            "--events",
            "-",
        ],
        &ndjson,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let ids: Vec<String> = text(&out.stdout)
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(ids, ["hit"]);

    // A refused predicate is refused before anything runs, pointing into it.
    let dir = std::env::temp_dir().join(format!("jobgraph-or-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let job = dir.join("or.json");
    std::fs::write(
        &job,
        serde_json::json!({"vertices": [
            {"type": "logs-values-source", "name": "in", "values": []},
            {"type": "logs-filter", "name": "f", "predicate": {"type": "and-predicate", "queries": [
                {"type": "datadog-query", "query": "a"},
                {"type": "or-predicate", "queries": [{"type": "datadog-query", "query": "b"}]}]}},
            {"type": "logs-sync-sink", "name": "out"}],
            "edges": ["in -> f", "f -> out"]})
        .to_string(),
    )
    .unwrap();
    let out = jobgraph(&[
        "resolve",
        job.to_str().unwrap(),
        "--templates",
        "examples/templates",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("/vertices/1/predicate/queries/1/type")
            && stderr.contains("there is no `or-predicate`"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// An unknown field of a known type is kept in the resolved document and warned of, with the
/// field it likely meant; `--quiet` silences the warning; a type nobody knows is never warned of.
#[test]
fn resolve_keeps_unknown_fields_and_warns_of_them() {
    let dir = std::env::temp_dir().join(format!("jobgraph-unknown-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let job = dir.join("job.json");
    std::fs::write(
        &job,
        serde_json::json!({"vertices": [
            {"type": "logs-values-source", "name": "in", "values": []},
            {"type": "logs-filter", "name": "f", "query": {"type": "datadog-query", "query": "level:error"}, "invertd": true},
            {"type": "someone-elses-sink", "name": "out", "anything": 1}],
            "edges": ["in -> f", "f -> out"]})
        .to_string(),
    )
    .unwrap();
    let path = job.to_str().unwrap();
    let out = jobgraph(&["resolve", path, "--templates", "examples/templates"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let resolved: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(resolved["vertices"][1]["invertd"], true, "kept as it is");
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(
            "warning: /vertices/1/invertd: unknown field `invertd` of type \"logs-filter\""
        ) && stderr.contains("did you mean `inverted`?"),
        "{stderr}"
    );
    assert!(!stderr.contains("anything"), "{stderr}");
    let out = jobgraph(&[
        "resolve",
        path,
        "--templates",
        "examples/templates",
        "--quiet",
    ]);
    assert!(
        out.status.success() && !text(&out.stderr).contains("warning"),
        "{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
