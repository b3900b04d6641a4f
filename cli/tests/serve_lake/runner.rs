//! Asynchronous jobs run (issue 38, docs/api.md "Running jobs"): a streaming job reads what is
//! loaded into its dataset as it lands and writes its sink's dataset, stops and resumes where
//! it stopped, hands over to a new version with nothing lost or doubled, ends when deleted; a
//! backfill runs to `FINISHED`; `kill -9` of the service loses and doubles nothing.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::Server;
use crate::{alice_on, create_dataset, data_of, events, ids_of, load, ndjson, run_sync, server};

/// Creates an asynchronous job; its answer.
pub(crate) fn create_job(server: &Server, token: &str, body: &Value) -> Value {
    let r = server.call("POST", "/v1/jobs", Some(token), Some(body));
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()
}

/// A version of a job (`None`: the latest).
pub(crate) fn job(server: &Server, token: &str, id: &str, version: Option<u64>) -> Value {
    let path = match version {
        Some(v) => format!("/v1/jobs/{id}?version={v}"),
        None => format!("/v1/jobs/{id}"),
    };
    let r = server.call("GET", &path, Some(token), None);
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

/// Waits (up to 30 s) until the version is in `state`; its answer.
pub(crate) fn wait_state(
    server: &Server,
    token: &str,
    id: &str,
    version: Option<u64>,
    state: &str,
) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let job = job(server, token, id, version);
        if job["state"] == state {
            return job;
        }
        assert!(
            Instant::now() < deadline,
            "job {id} v{version:?} never reached {state}: {job}\nlog: {}",
            server.log()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `PUT` of `desiredState` (202, a new version), then waits until that version is in it.
pub(crate) fn set_desired(server: &Server, token: &str, id: &str, desired: &str) -> u64 {
    let r = server.call(
        "PUT",
        &format!("/v1/jobs/{id}"),
        Some(token),
        Some(&json!({"desiredState": desired})),
    );
    assert_eq!(r.status, 202, "{}", r.body);
    let version = r.json()["version"].as_u64().unwrap();
    wait_state(server, token, id, Some(version), desired);
    version
}

/// Every event of a dataset, read by a synchronous job.
pub(crate) fn rows(server: &Server, token: &str, dataset: &str) -> Vec<Value> {
    let read = json!({
        "name": "read", "execution": "SYNCHRONOUS", "processing": "BATCH",
        "jobGraph": {"vertices": [
            {"type": "logs-iceberg-table-source", "name": "in", "datasetId": dataset},
            {"type": "logs-sync-sink", "name": "out"}], "edges": ["in -> out"]}
    });
    data_of(&run_sync(server, token, &read))
}

/// Waits (up to 30 s) until the dataset holds `n` events; their sorted ids.
pub(crate) fn wait_rows(server: &Server, token: &str, dataset: &str, n: usize) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let rows = rows(server, token, dataset);
        if rows.len() >= n {
            return ids_of(&rows);
        }
        assert!(
            Instant::now() < deadline,
            "dataset {dataset} has {} of {n} events\nlog: {}",
            rows.len(),
            server.log()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A streaming job: `input` filtered by `query` into `output`.
fn streaming_job(name: &str, input: &str, query: &str, output: &str) -> Value {
    json!({
        "name": name, "execution": "ASYNCHRONOUS", "processing": "STREAMING",
        "jobGraph": {"vertices": [
            {"type": "logs-iceberg-table-source", "name": "in", "datasetId": input, "processing": "STREAM"},
            {"type": "logs-filter", "name": "keep", "query": {"type": "simple-query", "query": query}},
            {"type": "logs-iceberg-table-sink", "name": "out", "datasetId": output}],
         "edges": ["in -> keep", "keep -> out"]}
    })
}

/// Datasets `{prefix}-in` and `{prefix}-out` and a streaming job `name` between them
/// ([`streaming_job`]), running: (input, output, job id).
fn running_stream(
    server: &Server,
    token: &str,
    prefix: &str,
    name: &str,
    query: &str,
) -> (String, String, String) {
    let input = create_dataset(server, token, &format!("{prefix}-in"), json!({}));
    let output = create_dataset(server, token, &format!("{prefix}-out"), json!({}));
    let id = create_job(server, token, &streaming_job(name, &input, query, &output))["id"]
        .as_str()
        .unwrap()
        .to_owned();
    wait_state(server, token, &id, None, "RUNNING");
    (input, output, id)
}

/// Events `from..to` of a series, each with its own id.
fn series(prefix: &str, from: usize, to: usize) -> Vec<Value> {
    events(to, "2026-11-20T00:00:00Z", 2)
        .into_iter()
        .enumerate()
        .skip(from)
        .map(|(i, mut e)| {
            e["id"] = json!(format!("{prefix}-{i:06}"));
            e
        })
        .collect()
}

fn ids_where(events: &[Value], level: &[&str]) -> Vec<String> {
    let kept: Vec<Value> = events
        .iter()
        .filter(|e| level.contains(&e["tags"]["level"][0].as_str().unwrap()))
        .cloned()
        .collect();
    ids_of(&kept)
}

#[test]
fn a_streaming_job_runs_stops_and_resumes_where_it_stopped() {
    let server = server();
    let token = alice_on(server);
    let input = create_dataset(server, &token, "stream-in", json!({}));
    let output = create_dataset(server, &token, "stream-out", json!({}));
    // Loaded before the job starts: not read (a stream starts from the moment it starts).
    load(server, &token, &input, &ndjson(&series("before", 0, 50)));
    let created = create_job(
        server,
        &token,
        &streaming_job("errors-stream", &input, "level:error", &output),
    );
    assert_eq!(created["state"], "PENDING", "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    let running = wait_state(server, &token, &id, None, "RUNNING");
    assert!(running["startedAt"].is_string(), "{running}");
    assert_eq!(running["pipelineStatus"]["health"], "HEALTHY", "{running}");

    let first = series("a", 0, 300);
    load(server, &token, &input, &ndjson(&first));
    let mut expected = ids_where(&first, &["error"]);
    assert_eq!(wait_rows(server, &token, &output, expected.len()), expected);

    // The public client's `job:list --state RUNNING` (its request: `/api` prefix, `since` six
    // hours back, `latest=true`) shows it running, with the fields its ReadJob reads.
    let since = jiff::Timestamp::now() - jiff::SignedDuration::from_hours(6);
    let r = crate::common::request(
        server.addr,
        "GET",
        &format!("/api/v1/jobs?since={since}&latest=true&state=RUNNING"),
        &[("Authorization".into(), format!("Bearer {token}"))],
        None,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let listed = r.json();
    let item = listed["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["id"] == id.as_str())
        .unwrap_or_else(|| panic!("not listed: {listed}"))
        .clone();
    assert_eq!(item["state"], "RUNNING");
    assert!(
        item["startedAt"].is_string() && item["pipelineStatus"].is_object(),
        "{item}"
    );
    // Ours: `jobgraph job:list --state RUNNING`.
    let home = tempfile::tempdir().unwrap();
    let out = crate::jobgraph(server, home.path())
        .args(["job:list", "--state", "RUNNING", "-f", "compact"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains(&id),
        "{stdout} {}",
        String::from_utf8_lossy(&out.stderr)
    );

    // Stopped: what is loaded meanwhile waits.
    set_desired(server, &token, &id, "STOPPED");
    let second = series("b", 0, 200);
    load(server, &token, &input, &ndjson(&second));
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(rows(server, &token, &output).len(), expected.len());

    // Running again: from where it stopped, nothing lost, nothing twice.
    set_desired(server, &token, &id, "RUNNING");
    expected.extend(ids_where(&second, &["error"]));
    expected.sort();
    assert_eq!(wait_rows(server, &token, &output, expected.len()), expected);
    let status = job(server, &token, &id, None)["pipelineStatus"].clone();
    assert!(status["eventsIn"].as_u64().unwrap() >= 200, "{status}");
    assert!(status["checkpoints"].as_u64().unwrap() >= 1, "{status}");

    // Deleted: it ends, and the job is gone.
    let r = server.call("DELETE", &format!("/v1/jobs/{id}"), Some(&token), None);
    assert_eq!(r.status, 204, "{}", r.body);
    let r = server.call("GET", &format!("/v1/jobs/{id}"), Some(&token), None);
    assert_eq!(r.status, 404, "{}", r.body);
}

#[test]
fn an_update_takes_over_from_the_version_before_with_nothing_lost_or_doubled() {
    let server = server();
    let token = alice_on(server);
    let (input, output, id) =
        running_stream(server, &token, "update", "update-stream", "level:error");
    let first = series("u1", 0, 200);
    load(server, &token, &input, &ndjson(&first));
    let mut expected = ids_where(&first, &["error"]);
    wait_rows(server, &token, &output, expected.len());

    // Version 2 keeps warnings too.
    let mut next = streaming_job(
        "update-stream",
        &input,
        "level:error OR level:warn",
        &output,
    );
    next.as_object_mut().unwrap().remove("execution");
    let r = server.call("PUT", &format!("/v1/jobs/{id}"), Some(&token), Some(&next));
    assert_eq!(r.status, 202, "{}", r.body);
    assert_eq!(r.json()["version"], 2);
    let retired = wait_state(server, &token, &id, Some(1), "FINISHED");
    assert!(retired["endedAt"].is_string(), "{retired}");
    wait_state(server, &token, &id, Some(2), "RUNNING");
    let second = series("u2", 0, 200);
    load(server, &token, &input, &ndjson(&second));
    expected.extend(ids_where(&second, &["error", "warn"]));
    expected.sort();
    assert_eq!(wait_rows(server, &token, &output, expected.len()), expected);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(ids_of(&rows(server, &token, &output)), expected);
}

#[test]
fn a_backfill_runs_to_finished_and_reads_its_time_range() {
    let server = server();
    let token = alice_on(server);
    let input = create_dataset(server, &token, "backfill-in", json!({}));
    let output = create_dataset(server, &token, "backfill-out", json!({}));
    let all = series("bf", 0, 400);
    load(server, &token, &input, &ndjson(&all));
    let (start, end) = ("2026-11-20T00:30:00Z", "2026-11-20T01:30:00Z");
    let body = json!({
        "name": "backfill", "execution": "ASYNCHRONOUS", "processing": "BATCH",
        "jobGraph": {"vertices": [
            {"type": "logs-iceberg-table-source", "name": "in", "datasetId": input,
             "start": start, "end": end},
            {"type": "logs-filter", "name": "keep", "query": {"type": "simple-query", "query": "level:warn"}},
            {"type": "logs-iceberg-table-sink", "name": "out", "datasetId": output}],
         "edges": ["in -> keep", "keep -> out"]}
    });
    let id = create_job(server, &token, &body)["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let finished = wait_state(server, &token, &id, None, "FINISHED");
    assert!(finished["endedAt"].is_string(), "{finished}");
    let expected = jobgraph_testkit::lake::expected_ids(&all, "level:warn", start, end);
    assert!(!expected.is_empty());
    assert_eq!(ids_of(&rows(server, &token, &output)), expected);
}

#[test]
fn a_batch_job_that_has_not_ended_is_neither_updated_nor_deleted() {
    let server = server();
    let token = alice_on(server);
    let input = create_dataset(server, &token, "held-in", json!({}));
    let output = create_dataset(server, &token, "held-out", json!({}));
    let body = json!({
        "name": "held", "execution": "ASYNCHRONOUS", "processing": "BATCH", "desiredState": "STOPPED",
        "jobGraph": {"vertices": [
            {"type": "logs-iceberg-table-source", "name": "in", "datasetId": input},
            {"type": "logs-iceberg-table-sink", "name": "out", "datasetId": output}],
         "edges": ["in -> out"]}
    });
    let id = create_job(server, &token, &body)["id"]
        .as_str()
        .unwrap()
        .to_owned();
    wait_state(server, &token, &id, None, "STOPPED");
    let r = server.call(
        "PUT",
        &format!("/v1/jobs/{id}"),
        Some(&token),
        Some(&json!({"name": "renamed"})),
    );
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(
        r.body.contains("batch job that has not ended"),
        "{}",
        r.body
    );
    let r = server.call("DELETE", &format!("/v1/jobs/{id}"), Some(&token), None);
    assert_eq!(r.status, 409, "{}", r.body);
}

#[test]
fn an_asynchronous_job_with_a_sync_sink_is_refused_and_one_that_cannot_start_fails() {
    let server = server();
    let token = alice_on(server);
    let body = json!({
        "name": "sync-sink", "execution": "ASYNCHRONOUS", "processing": "STREAMING",
        "jobGraph": {"vertices": [
            {"type": "logs-iceberg-table-source", "name": "in", "datasetName": "x"},
            {"type": "logs-sync-sink", "name": "back"}],
         "edges": ["in -> back"]}
    });
    let r = server.call("POST", "/v1/jobs", Some(&token), Some(&body));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.body.contains("vertex back is a logs-sync-sink"),
        "{}",
        r.body
    );

    let input = create_dataset(server, &token, "fails-in", json!({}));
    let body = json!({
        "name": "no-such-sink", "execution": "ASYNCHRONOUS", "processing": "STREAMING",
        "jobGraph": {"vertices": [
            {"type": "logs-iceberg-table-source", "name": "in", "datasetId": input},
            {"type": "logs-iceberg-table-sink", "name": "nowhere", "datasetName": "no-such-dataset"}],
         "edges": ["in -> nowhere"]}
    });
    let id = create_job(server, &token, &body)["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let failed = wait_state(server, &token, &id, None, "FAILED");
    assert_eq!(failed["pipelineStatus"]["health"], "UNHEALTHY", "{failed}");
    let message = failed["pipelineStatus"]["message"].as_str().unwrap();
    assert!(message.contains("nowhere"), "{message}");
    assert!(failed["endedAt"].is_string(), "{failed}");
}

/// A service of its own in a folder it can be restarted on (`kill -9` tests): its folder, and
/// the arguments to start it again with; `runner` adds to fast runner settings.
pub(crate) struct Restartable {
    _dir: tempfile::TempDir,
    data: std::path::PathBuf,
    args: Vec<String>,
}

impl Restartable {
    fn new(runner: Value) -> Restartable {
        Restartable::with(runner, json!({}))
    }

    /// With `extra` settings of the `--config` file besides `runner` and `lake`.
    pub(crate) fn with(runner: Value, extra: Value) -> Restartable {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("config.json");
        let mut settings = json!({"pollMs": 100, "renewMs": 200, "leaseMs": 1000,
                                  "checkpointMs": 200, "idlePollMs": 100});
        settings
            .as_object_mut()
            .unwrap()
            .extend(runner.as_object().unwrap().clone());
        let mut file = json!({"runner": settings, "lake": {"batchRows": 250}});
        file.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        crate::common::write_private(&config, &file.to_string());
        let args = vec![
            "--config".to_owned(),
            config.to_str().unwrap().to_owned(),
            "--client".to_owned(),
            "alice:alice-secret:acme".to_owned(),
        ];
        Restartable {
            data: dir.path().join("data"),
            _dir: dir,
            args,
        }
    }

    pub(crate) fn start(&self) -> Server {
        let args: Vec<&str> = self.args.iter().map(String::as_str).collect();
        Server::start_in(&self.data, &args)
    }
}

/// Waits until the job wrote `n` checkpoints, then kills the service with `kill -9`; the
/// job's `pipelineStatus` then, which must show it had not read `total` events yet.
fn kill_after_checkpoints(mut server: Server, token: &str, id: &str, n: u64, total: u64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        let status = job(&server, token, id, None)["pipelineStatus"].clone();
        if status["checkpoints"].as_u64().unwrap_or(0) >= n {
            break status;
        }
        assert!(Instant::now() < deadline, "no checkpoint: {}", server.log());
        std::thread::sleep(Duration::from_millis(10));
    };
    server.kill9();
    assert!(
        status["eventsIn"].as_u64().unwrap() < total,
        "the job read everything before the kill: {status}"
    );
    status
}

/// `kill -9` of the service mid-stream: the restarted service resumes the job from its last
/// checkpoint, and the sink's dataset holds every event it should once, none missing, none
/// doubled.
#[test]
fn kill_9_mid_stream_then_a_restart_loses_and_doubles_nothing() {
    let service = Restartable::new(json!({"checkpointEvents": 1000}));
    let server = service.start();
    let token = alice_on(&server);
    let (input, output, id) = running_stream(
        &server,
        &token,
        "crash",
        "crash",
        "level:error OR level:warn",
    );
    let mut all = Vec::new();
    for part in 0..8 {
        let events = series(&format!("k{part}"), 0, 5000);
        load(&server, &token, &input, &ndjson(&events));
        all.extend(events);
    }
    // Killed once some checkpoints are written, before it is through.
    kill_after_checkpoints(server, &token, &id, 3, 40_000);
    let server = service.start();
    let token = alice_on(&server);
    for part in 8..10 {
        let events = series(&format!("k{part}"), 0, 5000);
        load(&server, &token, &input, &ndjson(&events));
        all.extend(events);
    }
    let expected = ids_where(&all, &["error", "warn"]);
    let got = wait_rows(&server, &token, &output, expected.len());
    assert_eq!(got.len(), expected.len(), "doubled events");
    assert_eq!(got, expected);
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(ids_of(&rows(&server, &token, &output)), expected);
}

#[test]
fn a_failing_update_with_rollback_enabled_is_followed_by_the_version_before() {
    let server = server();
    let token = alice_on(server);
    let input = create_dataset(server, &token, "rollback-in", json!({}));
    let output = create_dataset(server, &token, "rollback-out", json!({}));
    let good = streaming_job("rollback", &input, "level:error", &output);
    let id = create_job(server, &token, &good)["id"]
        .as_str()
        .unwrap()
        .to_owned();
    wait_state(server, &token, &id, Some(1), "RUNNING");
    let mut bad = good.clone();
    bad["jobGraph"]["vertices"][2] =
        json!({"type": "logs-iceberg-table-sink", "name": "out", "datasetName": "no-such-dataset"});
    let r = server.call(
        "PUT",
        &format!("/v1/jobs/{id}?rollbackEnabled=true"),
        Some(&token),
        Some(&bad),
    );
    assert_eq!(r.status, 202, "{}", r.body);
    let failed = wait_state(server, &token, &id, Some(2), "FAILED");
    assert!(
        failed["pipelineStatus"]["message"]
            .as_str()
            .unwrap()
            .contains("out"),
        "{failed}"
    );
    let rolled = wait_state(server, &token, &id, Some(3), "RUNNING");
    assert_eq!(rolled["jobGraph"], good["jobGraph"], "{rolled}");
    assert_eq!(job(server, &token, &id, Some(1))["state"], "FINISHED");
    // It goes on where version 1 was.
    let events = series("rb", 0, 200);
    load(server, &token, &input, &ndjson(&events));
    let expected = ids_where(&events, &["error"]);
    assert_eq!(wait_rows(server, &token, &output, expected.len()), expected);
}

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
    // Another organization sees none of it.
    let other = crate::bob_on(server);
    let r = server.call("GET", "/metrics", Some(&other), None);
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(!r.body.contains(&id), "{}", r.body);
    let r = server.call("GET", "/metrics", None, None);
    assert_eq!(r.status, 401, "{}", r.body);
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
