//! A running job's owner killed: another replica takes it over from its last checkpoint,
//! reading the lake (a table source) or agents' logs on NATS JetStream.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{self, Server};
use crate::{database, replicas, serial, stream};

/// A dataset named `name` made on `server`: its id.
pub(crate) fn create_dataset(server: &Server, token: &str, name: &str) -> String {
    let r = server.call(
        "POST",
        "/v1/datasets",
        Some(token),
        Some(&json!({"name": name})),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()["id"].as_str().unwrap().to_owned()
}

/// The job `body` made on `server`: its id.
pub(crate) fn create_job(server: &Server, token: &str, body: &Value) -> String {
    let r = server.call("POST", "/v1/jobs", Some(token), Some(body));
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()["id"].as_str().unwrap().to_owned()
}

/// The replica driving a job, from its `pipelineStatus`.
pub(crate) fn driver_of(server: &Server, token: &str, job: &str) -> (String, Value) {
    let r = server.call("GET", &format!("/v1/jobs/{job}"), Some(token), None);
    assert_eq!(r.status, 200, "{}", r.body);
    let job = r.json();
    (
        job["pipelineStatus"]["replica"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        job,
    )
}

/// The runner id a replica logged when it started.
pub(crate) fn runner_id(server: &Server) -> String {
    let log = server.log();
    let line = log
        .lines()
        .find(|l| l.contains("runner: started"))
        .unwrap_or_else(|| panic!("no runner started: {log}"));
    line.split("owner=")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .expect("owner=…")
        .to_owned()
}

/// Two replicas run a streaming job; the one that drives it is killed with `kill -9` mid-stream;
/// the other takes it over from its last checkpoint within the lease, and the sink's dataset
/// holds every event once.
#[test]
fn the_owner_of_a_running_job_killed_another_replica_takes_it_over_exactly() {
    let _serial = serial();
    let Some(url) = database("takeover") else {
        return;
    };
    let lake = tempfile::tempdir().unwrap();
    let (mut a, mut b) = replicas_sharing_a_lake(
        &url,
        lake.path(),
        json!({"runner": {"pollMs": 200, "renewMs": 500, "leaseMs": 3000, "checkpointMs": 200,
                          "checkpointEvents": 1000, "idlePollMs": 100},
               "lake": {"batchRows": 250}}),
    );
    let token = a.token("ci", "ci-secret");
    let dataset = |name: &str| create_dataset(&a, &token, name);
    let (input, output) = (dataset("takeover-in"), dataset("takeover-out"));
    let r = a.call(
        "POST",
        "/v1/jobs",
        Some(&token),
        Some(&json!({
            "name": "takeover", "execution": "ASYNCHRONOUS", "processing": "STREAMING",
            "jobGraph": {"vertices": [
                {"type": "logs-iceberg-table-source", "name": "in", "datasetId": input, "processing": "STREAM"},
                {"type": "logs-filter", "name": "keep", "query": {"type": "simple-query", "query": "level:error"}},
                {"type": "logs-iceberg-table-sink", "name": "out", "datasetId": output}],
             "edges": ["in -> keep", "keep -> out"]}})),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let job = r.json()["id"].as_str().unwrap().to_owned();
    let deadline = Instant::now() + Duration::from_secs(30);
    let owner = loop {
        let (owner, answer) = driver_of(&a, &token, &job);
        if answer["state"] == "RUNNING" && !owner.is_empty() {
            break owner;
        }
        assert!(Instant::now() < deadline, "never ran: {answer}");
        std::thread::sleep(Duration::from_millis(50));
    };
    let (a_id, b_id) = (runner_id(&a), runner_id(&b));
    assert!(
        owner == a_id || owner == b_id,
        "{owner} is neither {a_id} nor {b_id}"
    );
    let load = |server: &Server, part: usize| {
        let events = jobgraph_testkit::lake::events(4000, "2026-11-20T00:00:00Z", 2)
            .into_iter()
            .enumerate()
            .map(|(i, mut e)| {
                e["id"] = json!(format!("t{part}-{i:05}"));
                e
            })
            .collect::<Vec<_>>();
        let r = common::request(
            server.addr,
            "POST",
            &format!("/v1/datasets/{input}/load"),
            &[
                ("Authorization".into(), format!("Bearer {token}")),
                ("Content-Type".into(), "application/x-ndjson".into()),
            ],
            Some(jobgraph_testkit::lake::ndjson(&events).as_bytes()),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        events
    };
    let mut all = Vec::new();
    for part in 0..6 {
        all.extend(load(&a, part));
    }
    // The owner is killed once it checkpointed, before it is through.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (_, answer) = driver_of(&a, &token, &job);
        if answer["pipelineStatus"]["checkpoints"]
            .as_u64()
            .unwrap_or(0)
            >= 3
        {
            break;
        }
        assert!(Instant::now() < deadline, "no checkpoint: {answer}");
        std::thread::sleep(Duration::from_millis(20));
    }
    let (killed_at, survivor, survivor_id) = if owner == a_id {
        a.kill9();
        (Instant::now(), &b, b_id)
    } else {
        b.kill9();
        (Instant::now(), &a, a_id)
    };
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (driver, answer) = driver_of(survivor, &token, &job);
        if driver == survivor_id && answer["state"] == "RUNNING" {
            break;
        }
        assert!(Instant::now() < deadline, "not taken over: {answer}");
        std::thread::sleep(Duration::from_millis(50));
    }
    let takeover = killed_at.elapsed();
    eprintln!("takeover after kill -9 of the owner: {takeover:?} (lease 3 s)");
    assert!(takeover < Duration::from_secs(10), "{takeover:?}");
    all.extend(load(survivor, 6));
    let mut expected: Vec<String> = all
        .iter()
        .filter(|e| e["tags"]["level"][0] == "error")
        .map(|e| e["id"].as_str().unwrap().to_owned())
        .collect();
    expected.sort();
    let got = read_back(survivor, &token, &output, "id", expected.len());
    assert_eq!(got.len(), expected.len(), "missing or doubled events");
    assert_eq!(got, expected);
    drop(a);
    drop(b);
}

/// Two replicas on database `url` with `settings` as their `--config` and one lake folder,
/// both in `dir`.
pub(crate) fn replicas_sharing_a_lake(
    url: &str,
    dir: &std::path::Path,
    settings: Value,
) -> (Server, Server) {
    let config = dir.join("config.json");
    common::write_private(&config, &settings.to_string());
    let lake_url = format!("file://{}", dir.join("lake").display());
    std::fs::create_dir_all(dir.join("lake")).unwrap();
    replicas(
        url,
        &[
            "--lake",
            lake_url.as_str(),
            "--config",
            config.to_str().unwrap(),
        ],
    )
}

/// The `field` of every event of `dataset` (read by a synchronous query on `server`), sorted,
/// once there are `n` (or after 30 s).
pub(crate) fn read_back(
    server: &Server,
    token: &str,
    dataset: &str,
    field: &str,
    n: usize,
) -> Vec<String> {
    let read = json!({
        "name": "read", "execution": "SYNCHRONOUS", "processing": "BATCH",
        "jobGraph": {"vertices": [
            {"type": "logs-iceberg-table-source", "name": "in", "datasetId": dataset},
            {"type": "logs-sync-sink", "name": "out"}], "edges": ["in -> out"]}
    });
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let mut sync = stream::open_sync(server, token, &read);
        let mut values = Vec::new();
        while let Some(record) = sync.next_record() {
            if let Some(beat) = record["heartbeatToken"].as_str() {
                stream::heartbeat(server, token, beat);
            }
            if let Some(value) = record["data"][field].as_str() {
                values.push(value.to_owned());
            }
        }
        values.sort();
        if values.len() >= n || Instant::now() > deadline {
            return values;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

pub(crate) const DD_KEY: &str = "dd-ingest-key-0123456789abcdef";

/// `count` Datadog log items from `datadog-api-client` (tests/peers/send_datadog.py) to
/// `server`, 1000 a request, messages `{prefix} {i}`.
fn send_datadog(server: &Server, count: usize, prefix: &str) {
    send_datadog_as(server, count, prefix, None);
}

/// [`send_datadog`] with the items' `service` (tagged `service:{service}`).
pub(crate) fn send_datadog_as(server: &Server, count: usize, prefix: &str, service: Option<&str>) {
    let workspace = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let python = std::env::var_os("JOBGRAPH_PEERS_PYTHON")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| workspace.join("target/peers-venv/bin/python"));
    let out = std::process::Command::new(&python)
        .arg(workspace.join("tests/peers/send_datadog.py"))
        .args([
            "--url",
            &server.url(),
            "--api-key",
            DD_KEY,
            "--count",
            &count.to_string(),
        ])
        .args(["--batch", "1000", "--gzip", "--message-prefix", prefix])
        .args(service.map(|s| ["--service", s]).into_iter().flatten())
        .output()
        .unwrap_or_else(|e| panic!("{} (scripts/setup.sh makes it): {e}", python.display()));
    assert!(
        out.status.success(),
        "send_datadog.py: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Issue 39: two replicas on one database with the intake log on NATS JetStream. Agents send
/// to either replica; the one running the pipeline reads them all. It is killed with
/// `kill -9` mid-stream: the other takes the run over at its last checkpoint, JetStream
/// delivers again what the dead one read past it, and the lake holds every acknowledged event
/// once.
#[test]
fn agents_logs_sent_to_either_replica_on_jetstream_survive_the_owner_killed() {
    let _serial = serial();
    let Some(url) = database("jetstream") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (mut a, mut b) = replicas_sharing_a_lake(
        &url,
        dir.path(),
        json!({
            "runner": {"pollMs": 200, "renewMs": 500, "leaseMs": 3000, "checkpointMs": 200,
                       "checkpointEvents": 1000, "batchEvents": 1000, "idlePollMs": 100},
            "lake": {"batchRows": 250},
            "integrations": [{"id": "dd-agents", "name": "Datadog agents", "type": "datadog",
                              "ingestKey": DD_KEY}],
            "intake": {"nats": {"url": common::nats_url(), "stream": "JG_REPLICAS",
                                "subjectPrefix": "jg.replicas"}}
        }),
    );
    let token = a.token("ci", "ci-secret");
    let r = a.call(
        "POST",
        "/v1/datasets",
        Some(&token),
        Some(&json!({"name": "agents"})),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let output = r.json()["id"].as_str().unwrap().to_owned();
    let r = a.call(
        "POST",
        "/v1/jobs",
        Some(&token),
        Some(&json!({
            "name": "agents", "execution": "ASYNCHRONOUS", "processing": "STREAMING",
            "jobGraph": {"vertices": [
                {"type": "datadog-log-agent-source", "name": "agents", "integrationId": "dd-agents"},
                {"type": "logs-iceberg-table-sink", "name": "out", "datasetId": output}],
             "edges": ["agents -> out"]}})),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let job = r.json()["id"].as_str().unwrap().to_owned();
    let owner = wait_driven(&a, &token, &job, None);
    // Agents reach either replica: the pipeline reads both.
    send_datadog(&a, 2000, "warm-a");
    send_datadog(&b, 2000, "warm-b");
    let warm = read_back(&a, &token, &output, "message", 4000);
    assert_eq!(warm.len(), 4000, "read once from both replicas' intake");
    // A backlog through both replicas, then the owner is killed once it checkpointed some.
    let before = driver_of(&a, &token, &job).1["pipelineStatus"]["checkpoints"]
        .as_u64()
        .unwrap_or(0);
    std::thread::scope(|scope| {
        scope.spawn(|| send_datadog(&a, 20_000, "backlog-a"));
        scope.spawn(|| send_datadog(&b, 20_000, "backlog-b"));
    });
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        let (_, answer) = driver_of(&a, &token, &job);
        let status = answer["pipelineStatus"].clone();
        if status["checkpoints"].as_u64().unwrap_or(0) >= before + 3 {
            break status;
        }
        assert!(Instant::now() < deadline, "no checkpoint: {answer}");
        std::thread::sleep(Duration::from_millis(10));
    };
    let (a_id, b_id) = (runner_id(&a), runner_id(&b));
    let (killed_at, survivor, survivor_id) = if owner == a_id {
        a.kill9();
        (Instant::now(), &b, b_id)
    } else {
        b.kill9();
        (Instant::now(), &a, a_id)
    };
    assert!(
        status["eventsIn"].as_u64().unwrap_or(0) < 44_000,
        "the owner read everything before the kill: {status}"
    );
    wait_driven(survivor, &token, &job, Some(&survivor_id));
    eprintln!(
        "jetstream takeover after kill -9 of the owner: {:?} (lease 3 s)",
        killed_at.elapsed()
    );
    send_datadog(survivor, 1000, "after");
    let mut expected = Vec::new();
    for (prefix, n) in [
        ("warm-a", 2000),
        ("warm-b", 2000),
        ("backlog-a", 20_000),
        ("backlog-b", 20_000),
        ("after", 1000),
    ] {
        expected.extend((0..n).map(|i| format!("{prefix} {i}")));
    }
    expected.sort();
    let got = read_back(survivor, &token, &output, "message", expected.len());
    assert_eq!(got.len(), expected.len(), "missing or doubled events");
    assert_eq!(got, expected);
    drop(a);
    drop(b);
}

/// Waits until `job` runs, driven by `by` (any replica: `None`); its driver.
pub(crate) fn wait_driven(server: &Server, token: &str, job: &str, by: Option<&str>) -> String {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (driver, answer) = driver_of(server, token, job);
        if answer["state"] == "RUNNING" && !driver.is_empty() && by.is_none_or(|b| b == driver) {
            return driver;
        }
        assert!(
            Instant::now() < deadline,
            "not running (wanted {by:?}): {answer}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}
