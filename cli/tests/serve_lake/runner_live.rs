//! A running job observed and stressed (issue 38): its metrics, a tap on a vertex, a quiet
//! stream closing its reducer's windows, and `kill -9` of a reducing stream.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::Server;
use crate::runner::{
    Restartable, create_job, ids_where, job, kill_after_checkpoints, rows, running_stream, series,
    set_desired, wait_rows, wait_state,
};
use crate::{alice_on, create_dataset, events, load, ndjson, server};

/// `GET /metrics` of a running job: Prometheus text that `promtool check metrics` (Debian's
/// `prometheus`) accepts, with the job's counters, and nothing of another organization's.
#[test]
fn metrics_of_a_running_job_pass_promtool_and_stay_in_the_organization() {
    let server = server();
    let token = alice_on(server);
    let (input, output, id) = running_stream(server, &token, "metrics", "metered", "level:error");
    let events = series("m", 0, 140);
    load(server, &token, &input, &ndjson(&events));
    let expected = ids_where(&events, &["error"]);
    wait_rows(server, &token, &output, expected.len());
    let deadline = Instant::now() + Duration::from_secs(10);
    let text = loop {
        let r = server.call("GET", "/metrics", Some(&token), None);
        assert_eq!(r.status, 200, "{}", r.body);
        assert!(
            r.header("content-type")
                .unwrap()
                .starts_with("text/plain; version=0.0.4"),
            "{:?}",
            r.headers
        );
        let line = format!(
            "jobgraph_job_source_events_total{{job_id=\"{id}\",job_name=\"metered\",version=\"1\"}} 140"
        );
        if r.body.lines().any(|l| l == line) || Instant::now() > deadline {
            break r.body;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(text.contains(&format!("job_id=\"{id}\"")), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("jobgraph_job_source_events_total{")
                && l.contains(&id)
                && l.ends_with(" 140")),
        "{text}"
    );
    let sink_line = format!(
        "jobgraph_vertex_events_in_total{{job_id=\"{id}\",job_name=\"metered\",version=\"1\",vertex=\"out\",vertex_type=\"logs-iceberg-table-sink\"}} {}",
        expected.len()
    );
    assert!(text.lines().any(|l| l == sink_line), "{sink_line}\n{text}");
    promtool_accepts(&text);
    // Another organization sees none of it.
    let other = crate::bob_on(server);
    let r = server.call("GET", "/metrics", Some(&other), None);
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(!r.body.contains(&id), "{}", r.body);
    let r = server.call("GET", "/metrics", None, None);
    assert_eq!(r.status, 401, "{}", r.body);
}

/// Asserts that `promtool check metrics` (Debian's `prometheus`) accepts `text`.
pub(crate) fn promtool_accepts(text: &str) {
    let mut promtool = std::process::Command::new("promtool")
        .args(["check", "metrics"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("promtool (Debian's prometheus, installed by scripts/setup.sh)");
    std::io::Write::write_all(&mut promtool.stdin.take().unwrap(), text.as_bytes()).unwrap();
    let checked = promtool.wait_with_output().unwrap();
    assert!(
        checked.status.success(),
        "promtool: {}{}\n{text}",
        String::from_utf8_lossy(&checked.stdout),
        String::from_utf8_lossy(&checked.stderr)
    );
}

/// Loads a few events every 200 ms until `done` (at most 100 times): what a tap waits for.
fn keep_loading(server: &Server, token: &str, dataset: &str, done: &std::sync::atomic::AtomicBool) {
    for round in 0..100 {
        if done.load(std::sync::atomic::Ordering::Relaxed) {
            return;
        }
        load(
            server,
            token,
            dataset,
            &ndjson(&series(&format!("tap{round}"), 0, 20)),
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn a_tap_streams_a_bounded_live_sample_of_a_vertex_and_job_tap_prints_it() {
    let server = server();
    let token = alice_on(server);
    let (input, _output, id) =
        running_stream(server, &token, "tap", "tapped", "level:error OR level:warn");

    let r = server.call(
        "GET",
        &format!("/v1/jobs/{id}/tap?vertex=nope"),
        Some(&token),
        None,
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("in, keep, out"), "{}", r.body);

    let done = std::sync::atomic::AtomicBool::new(false);
    let (api, cli) = std::thread::scope(|scope| {
        let api = scope.spawn(|| {
            server.call(
                "GET",
                &format!("/v1/jobs/{id}/tap?vertex=keep&limit=7&waitMs=20000"),
                Some(&token),
                None,
            )
        });
        let cli = scope.spawn(|| {
            let home = tempfile::tempdir().unwrap();
            crate::jobgraph(server, home.path())
                .args([
                    "job:tap", &id, "--vertex", "keep", "--limit", "3", "--wait", "20",
                ])
                .output()
                .unwrap()
        });
        let loader = scope.spawn(|| keep_loading(server, &token, &input, &done));
        let (api, cli) = (api.join().unwrap(), cli.join().unwrap());
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        loader.join().unwrap();
        (api, cli)
    });
    assert_eq!(api.status, 200, "{}", api.body);
    assert_eq!(api.header("content-type"), Some("application/x-ndjson"));
    let lines: Vec<Value> = api
        .body
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 7, "{}", api.body);
    for event in &lines {
        let level = event["tags"]["level"][0].as_str().unwrap();
        assert!(level == "error" || level == "warn", "{event}");
        assert!(event["id"].as_str().unwrap().starts_with("tap"), "{event}");
    }
    let stdout = String::from_utf8_lossy(&cli.stdout);
    assert!(
        cli.status.success(),
        "{stdout} {}",
        String::from_utf8_lossy(&cli.stderr)
    );
    assert_eq!(stdout.lines().count(), 3, "{stdout}");

    // A stopped job is not tapped.
    set_desired(server, &token, &id, "STOPPED");
    let r = server.call("GET", &format!("/v1/jobs/{id}/tap"), Some(&token), None);
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(
        r.body.contains("is not running here (state STOPPED)"),
        "{}",
        r.body
    );
}

/// A reducer in a stream: samples go out as they come; once the stream is quiet for
/// `idleCloseMs`, the open window closes and its summary goes out.
#[test]
fn a_quiet_stream_closes_its_reducer_windows_and_the_summaries_go_out() {
    let server = server();
    let token = alice_on(server);
    let input = create_dataset(server, &token, "reduce-in", json!({}));
    let output = create_dataset(server, &token, "reduce-out", json!({}));
    let body = json!({
        "name": "reduced", "execution": "ASYNCHRONOUS", "processing": "STREAMING",
        "jobGraph": {"vertices": [
            {"type": "logs-iceberg-table-source", "name": "in", "datasetId": input, "processing": "STREAM"},
            {"type": "log-reducer", "name": "reduce"},
            {"type": "logs-iceberg-table-sink", "name": "out", "datasetId": output}],
         "edges": ["in -> reduce", "reduce -> out"]}
    });
    let id = create_job(server, &token, &body)["id"]
        .as_str()
        .unwrap()
        .to_owned();
    wait_state(server, &token, &id, None, "RUNNING");
    let events: Vec<Value> = (0..40)
        .map(|i| {
            json!({"id": format!("r{i:03}"), "eventTimestamp": format!("2026-11-20T00:00:{:02}Z", i),
                   "message": format!("user {i} signed in from 10.0.0.{i}"), "tags": {"service": ["auth"]}})
        })
        .collect();
    load(server, &token, &input, &ndjson(&events));
    let deadline = Instant::now() + Duration::from_secs(30);
    let kinds = loop {
        let rows = rows(server, &token, &output);
        let kinds: Vec<String> = rows
            .iter()
            .map(|e| {
                e["tags"]["grepr.messagetype"][0]
                    .as_str()
                    .unwrap_or("")
                    .to_owned()
            })
            .collect();
        if kinds.iter().any(|k| k == "summary") {
            break kinds;
        }
        assert!(
            Instant::now() < deadline,
            "no summary: {kinds:?}\n{}",
            server.log()
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(kinds.iter().any(|k| k == "sample"), "{kinds:?}");
    assert!(kinds.len() < events.len(), "reduced: {kinds:?}");
}

/// The rows of a dataset without their ids (a reducer's summaries get new ones), sorted.
fn rows_without_ids(server: &Server, token: &str, dataset: &str) -> Vec<String> {
    let mut rows: Vec<String> = rows(server, token, dataset)
        .into_iter()
        .map(|mut e| {
            e.as_object_mut().unwrap().remove("id");
            e.to_string()
        })
        .collect();
    rows.sort();
    rows
}

/// A reducer's patterns and open windows are in the checkpoints: `kill -9` mid-stream, a
/// restart, and the stream's output equals a clean run's over the same events (a backfill of
/// the input, which reads the same files in the same order: each load is a later hour).
#[test]
fn kill_9_of_a_reducing_stream_gives_the_rows_of_a_clean_run() {
    let service = Restartable::new(json!({"checkpointEvents": 700, "idleCloseMs": 2500}));
    let server = service.start();
    let token = alice_on(&server);
    let input = create_dataset(&server, &token, "rcrash-in", json!({}));
    let streamed = create_dataset(&server, &token, "rcrash-stream", json!({}));
    let clean = create_dataset(&server, &token, "rcrash-clean", json!({}));
    let graph = |processing: &str, output: &str| {
        let mut source =
            json!({"type": "logs-iceberg-table-source", "name": "in", "datasetId": input});
        if processing == "STREAMING" {
            source["processing"] = json!("STREAM");
        }
        json!({
            "name": format!("reduce-{processing}"), "execution": "ASYNCHRONOUS", "processing": processing,
            "jobGraph": {"vertices": [
                source,
                {"type": "log-reducer", "name": "reduce", "partitionByTags": ["service"],
                 "attributeMergeStrategyEntries": [
                    {"attributePath": ["http", "status"], "strategy": {"type": "max"}}]},
                {"type": "logs-iceberg-table-sink", "name": "out", "datasetId": output}],
             "edges": ["in -> reduce", "reduce -> out"]}
        })
    };
    let id = create_job(&server, &token, &graph("STREAMING", &streamed))["id"]
        .as_str()
        .unwrap()
        .to_owned();
    wait_state(&server, &token, &id, None, "RUNNING");
    let part = |p: usize| {
        let start = format!("2026-11-20T{p:02}:00:00Z");
        events(3000, &start, 1)
            .into_iter()
            .enumerate()
            .map(|(i, mut e)| {
                e["id"] = json!(format!("p{p}-{i:05}"));
                e
            })
            .collect::<Vec<_>>()
    };
    for p in 0..6 {
        load(&server, &token, &input, &ndjson(&part(p)));
    }
    let status = kill_after_checkpoints(server, &token, &id, 4, 18_000);
    let server = service.start();
    let token = alice_on(&server);
    for p in 6..8 {
        load(&server, &token, &input, &ndjson(&part(p)));
    }
    // Taken over by the new process, every event read, then the quiet stream's last windows
    // closed: the rows stop changing.
    let killed = status["replica"].as_str().unwrap().to_owned();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let status = job(&server, &token, &id, None)["pipelineStatus"].clone();
        let resumed = status["replica"].as_str().is_some_and(|r| r != killed);
        if resumed && status["lag"]["processingTimeMs"] == 0 {
            let before = rows(&server, &token, &streamed).len();
            std::thread::sleep(Duration::from_millis(3500));
            if before > 0 && before == rows(&server, &token, &streamed).len() {
                break;
            }
        }
        assert!(
            Instant::now() < deadline,
            "the stream never settled: {}",
            server.log()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let backfill = create_job(&server, &token, &graph("BATCH", &clean))["id"]
        .as_str()
        .unwrap()
        .to_owned();
    wait_state(&server, &token, &backfill, None, "FINISHED");
    let (got, want) = (
        rows_without_ids(&server, &token, &streamed),
        rows_without_ids(&server, &token, &clean),
    );
    assert!(want.len() < 24_000 && !want.is_empty(), "{}", want.len());
    assert_eq!(got.len(), want.len(), "rows missing or doubled");
    assert_eq!(got, want);
}
