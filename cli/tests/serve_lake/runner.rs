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
pub(crate) fn streaming_job(name: &str, input: &str, query: &str, output: &str) -> Value {
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
pub(crate) fn running_stream(
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
pub(crate) fn series(prefix: &str, from: usize, to: usize) -> Vec<Value> {
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

pub(crate) fn ids_where(events: &[Value], level: &[&str]) -> Vec<String> {
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
    pub(crate) fn new(runner: Value) -> Restartable {
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
pub(crate) fn kill_after_checkpoints(
    mut server: Server,
    token: &str,
    id: &str,
    n: u64,
    total: u64,
) -> Value {
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
