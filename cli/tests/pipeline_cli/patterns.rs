//! `jobgraph patterns` and the reduction `job:run` and `job:draft` report, as a user runs them.

use serde_json::{Value, json};

use super::{jobgraph, jobgraph_with_stdin, text};

fn temp(name: &str, contents: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("jobgraph-patterns-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("written");
    path
}

fn logins(n: usize) -> String {
    (0..n)
        .map(|i| format!("user {i} logged in from 10.0.0.{}\n", i % 200))
        .collect()
}

#[test]
fn patterns_are_counted_with_a_sample_and_ids_written_per_line() {
    let mut lines = logins(30);
    lines.push_str("disk full on /dev/sda1\n\n");
    lines.push_str(&serde_json::to_string(&json!({"message": "disk full on /dev/sdb1"})).unwrap());
    lines.push('\n');
    let file = temp("app.log", &lines);
    let ids = file.with_extension("ids");
    let out = jobgraph(&[
        "patterns",
        file.to_str().unwrap(),
        "-f",
        "compact",
        "--ids-out",
        ids.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let rows: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert_eq!(rows[0]["count"], 30);
    assert_eq!(rows[0]["pattern"], "user <number> logged in from <ipport>");
    assert_eq!(rows[0]["share"], "90.9%", "30 of 33 lines");
    assert_eq!(rows[0]["sample"], "user 0 logged in from 10.0.0.0");
    // The JSON line is read as an event: its message joins the plain line's pattern.
    assert_eq!(rows[1]["count"], 2);
    let ids = std::fs::read_to_string(&ids).unwrap();
    let ids: Vec<&str> = ids.lines().collect();
    assert_eq!(ids.len(), 33);
    assert_eq!(ids[0], rows[0]["id"].as_str().unwrap());
    assert_eq!(ids[31], "-", "a blank line has no pattern");
    assert_eq!(ids[30], ids[32]);
    assert!(text(&out.stderr).contains("33 lines, 2 patterns, 1 lines without a pattern"));
}

#[test]
fn patterns_settings_change_the_grouping_and_mistakes_are_named() {
    let lines = "user alice logged in\nuser bob logged in\n";
    let strict = jobgraph_with_stdin(
        &[
            "patterns",
            "-",
            "-f",
            "compact",
            "--config",
            r#"{"similarityThreshold": 100}"#,
        ],
        lines,
    );
    assert!(strict.status.success(), "{}", text(&strict.stderr));
    assert_eq!(text(&strict.stdout).lines().count(), 2);
    let loose = jobgraph_with_stdin(&["patterns", "-", "-f", "compact"], lines);
    assert_eq!(text(&loose.stdout).lines().count(), 1);
    let bad = jobgraph_with_stdin(
        &["patterns", "-", "--config", r#"{"enabledMasks": ["ssn"]}"#],
        lines,
    );
    assert_eq!(bad.status.code(), Some(2), "{}", text(&bad.stderr));
    assert!(
        text(&bad.stderr).contains("`enabledMasks[0]` names `ssn`"),
        "{}",
        text(&bad.stderr)
    );
    let not_json = jobgraph_with_stdin(&["patterns", "-", "--lines", "ndjson"], "plain\n");
    assert_eq!(not_json.status.code(), Some(2));
    assert!(
        text(&not_json.stderr).contains("-:1: not JSON"),
        "{}",
        text(&not_json.stderr)
    );
}

#[test]
fn job_run_and_draft_report_the_reduction_per_stage() {
    let job = json!({
        "name": "reduce", "jobGraph": {
        "vertices": [
            {"type": "logs-iceberg-table-source", "name": "in"},
            {"type": "log-reducer", "name": "reduce", "dedupThreshold": 2},
            {"type": "logs-sync-sink", "name": "out"}],
        "edges": ["in -> reduce", "reduce -> out"]}});
    let job = temp("job.json", &job.to_string());
    let events: String = (0..10)
        .map(|i| {
            json!({"eventTimestamp": i, "message": format!("user {i} logged in")}).to_string()
                + "\n"
        })
        .collect();
    let events = temp("events.ndjson", &events);
    let out = jobgraph(&[
        "job:run",
        job.to_str().unwrap(),
        "--events",
        events.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout).lines().count(),
        3,
        "two samples and a summary"
    );
    assert!(
        text(&out.stderr)
            .contains("stage reduce (log-reducer): 10 → 3 events (70.0% reduction, 1 patterns)"),
        "{}",
        text(&out.stderr)
    );
    let draft = jobgraph(&[
        "job:draft",
        job.to_str().unwrap(),
        "--sample-logs",
        events.to_str().unwrap(),
        "-f",
        "compact",
    ]);
    assert!(draft.status.success(), "{}", text(&draft.stderr));
    let stages: Value = serde_json::from_str(&text(&draft.stdout)).expect("a JSON array");
    let stage = stages
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["vertex"] == "reduce")
        .expect("the reducer's stage");
    assert_eq!(stage["reduction"], "70.0%");
    assert_eq!(stage["patterns"][0]["pattern"], "user <number> logged in");
    assert_eq!(stage["patterns"][0]["count"], 10);
}

#[test]
fn the_public_example_pipeline_with_a_reducer_runs_end_to_end() {
    let count = |sink: &str| {
        let out = jobgraph(&[
            "job:run",
            "examples/jobs/reduce-to-vendor.json",
            "--events",
            "examples/events/sample.ndjson",
            "--sink",
            sink,
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stderr = text(&out.stderr);
        assert!(
            !stderr.contains("not simulated"),
            "every vertex runs: {stderr}"
        );
        assert!(
            stderr.contains("stage reduce (log-reducer): 300 → "),
            "{stderr}"
        );
        text(&out.stdout).lines().count()
    };
    // Every raw event reaches the lake; the reducer's output is split by the branch.
    assert_eq!(count("lake"), 300);
    let (loud, quiet) = (count("vendor"), count("vendor-quiet"));
    assert!(
        loud > 0 && quiet > 0 && loud + quiet < 300,
        "{loud} + {quiet}"
    );
}
