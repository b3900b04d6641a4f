//! `job:to-test` as a user runs it: the real binary on the examples, its output checked with
//! `validate_job_graph` and run with `job:run`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn jobgraph(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jobgraph"))
        .args(args)
        .current_dir(root())
        .env("USER", "cli-tester")
        .output()
        .expect("the binary runs")
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

fn ndjson(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).expect("an NDJSON line"))
        .collect()
}

fn taggers(graph: &Value) -> Vec<&Value> {
    graph["vertices"]
        .as_array()
        .expect("vertices")
        .iter()
        .filter(|v| v["transforms"][1]["tagKey"] == "grepr.edge")
        .collect()
}

#[test]
fn the_example_job_gets_a_valid_graph_with_a_tagger_per_edge() {
    let out = jobgraph(&[
        "job:to-test",
        "examples/jobs/checkout-alerts.json",
        "--test-run-id",
        "t1",
    ]);
    let test: Value = serde_json::from_str(&ok(&out)).expect("JSON");
    assert!(out.stderr.is_empty(), "the id was given: nothing on stderr");
    let original: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("examples/jobs/checkout-alerts.json")).expect("job"),
    )
    .expect("JSON");
    assert_eq!(test["name"], original["name"]);
    let graph = &test["jobGraph"];
    let problems = jobgraph_core::validate_job_graph(graph);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(
        graph["edges"],
        json!([
            "ingest -> ingest_output_errors_input",
            "ingest_output_errors_input -> errors",
            "errors -> errors_output_alert_input",
            "errors_output_alert_input -> alert"
        ])
    );
    let labels: Vec<&Value> = taggers(graph)
        .iter()
        .map(|t| &t["transforms"][1]["values"][0])
        .collect();
    assert_eq!(
        labels,
        ["ingest_output_errors_input", "errors_output_alert_input"]
    );
    assert!(
        taggers(graph)
            .iter()
            .all(|t| t["transforms"][0]["values"] == json!(["t1"]))
    );
}

#[test]
fn a_test_job_run_on_events_tags_each_event_with_the_edges_it_took() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let resolved = dir.path().join("resolved.json");
    let test = dir.path().join("test.json");
    let (resolved, test) = (
        resolved.to_str().expect("path"),
        test.to_str().expect("path"),
    );
    ok(&jobgraph(&[
        "resolve",
        "examples/jobs/errors-to-vendor.json",
        "-t",
        "examples/templates",
        "-o",
        resolved,
    ]));
    let out = jobgraph(&["job:to-test", resolved, "-o", test]);
    ok(&out);
    let note = String::from_utf8_lossy(&out.stderr);
    let run_id = note
        .trim()
        .strip_prefix("test run id: ")
        .unwrap_or_else(|| panic!("the random id on stderr: {note}"))
        .to_owned();
    assert_eq!(run_id.len(), 16);

    let test_job: Value =
        serde_json::from_str(&std::fs::read_to_string(test).expect("written")).expect("JSON");
    let graph = &test_job["jobGraph"];
    assert!(jobgraph_core::validate_job_graph(graph).is_empty());
    // The vendor sink became a logs-sync-sink of the same name.
    let sink = graph["vertices"]
        .as_array()
        .expect("vertices")
        .iter()
        .find(|v| v["name"] == "export.vendor")
        .expect("the sink");
    assert_eq!(
        sink,
        &json!({"type": "logs-sync-sink", "name": "export.vendor"})
    );

    let events = "examples/events/sample.ndjson";
    let plain = ndjson(&ok(&jobgraph(&[
        "job:run", resolved, "--events", events, "-q",
    ])));
    let tagged = ndjson(&ok(&jobgraph(&["job:run", test, "--events", events, "-q"])));
    assert!(!plain.is_empty());
    assert_eq!(plain.len(), tagged.len(), "the taggers drop nothing");
    // The resolved job is a chain: every event that reached the sink took every edge, in order.
    let path: Vec<String> = taggers(graph)
        .iter()
        .map(|t| {
            t["transforms"][1]["values"][0]
                .as_str()
                .expect("label")
                .to_owned()
        })
        .collect();
    assert_eq!(path.len(), 3, "{path:?}");
    for (p, t) in plain.iter().zip(&tagged) {
        assert_eq!(t["tags"]["grepr.edge"], json!(path), "{t}");
        assert_eq!(t["tags"]["grepr.test_run_id"], json!([run_id]), "{t}");
        let mut without = t.clone();
        let tags = without["tags"].as_object_mut().expect("tags");
        tags.remove("grepr.edge");
        tags.remove("grepr.test_run_id");
        assert_eq!(&without, p, "only the test tags differ");
    }
}

#[test]
fn a_job_with_template_operations_runs_with_its_templates() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let test = dir.path().join("test.json");
    let test = test.to_str().expect("path");
    ok(&jobgraph(&[
        "job:to-test",
        "examples/jobs/errors-to-vendor.json",
        "--test-run-id",
        "t2",
        "-o",
        test,
    ]));
    let tagged = ndjson(&ok(&jobgraph(&[
        "job:run",
        test,
        "--events",
        "examples/events/sample.ndjson",
        "-t",
        "examples/templates",
        "-q",
    ])));
    assert!(!tagged.is_empty());
    for event in &tagged {
        assert_eq!(
            event["tags"]["grepr.edge"],
            json!(["ingest_output_export_input"]),
            "{event}"
        );
        assert_eq!(event["tags"]["grepr.test_run_id"], json!(["t2"]));
    }
}

#[test]
fn dataset_sinks_and_compact_output() {
    let graph = r#"{"vertices":[{"type":"logs-iceberg-table-source","name":"in"},{"type":"s3-sink","name":"out","bucket":"b"}],"edges":["in -> out"]}"#;
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("graph.json");
    std::fs::write(&file, graph).expect("written");
    let text = ok(&jobgraph(&[
        "job:to-test",
        file.to_str().expect("path"),
        "--test-run-id",
        "r",
        "--dataset-id",
        "ds1",
        "--table",
        "runs",
        "--compact",
    ]));
    assert_eq!(text.lines().count(), 1);
    let test: Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(
        test["vertices"][1],
        json!({"type": "logs-iceberg-table-sink", "name": "out", "datasetId": "ds1", "table": "runs"})
    );
}

#[test]
fn refuses_what_is_not_a_job_graph_or_names_a_missing_vertex() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, r#"{"name": "x"}"#).expect("written");
    let out = jobgraph(&[
        "job:to-test",
        bad.to_str().expect("path"),
        "--test-run-id",
        "r",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.json: not a job graph: it has neither `jobGraph` nor `vertices`"),
        "{err}"
    );

    std::fs::write(
        &bad,
        r#"{"vertices":[{"type":"a","name":"a"}],"edges":["a -> ghost"]}"#,
    )
    .expect("written");
    let out = jobgraph(&[
        "job:to-test",
        bad.to_str().expect("path"),
        "--test-run-id",
        "r",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("names vertex `ghost`, which the graph does not have"),
        "{err}"
    );

    let out = jobgraph(&["job:to-test", "no/such/file.json"]);
    assert_eq!(out.status.code(), Some(2));
}
