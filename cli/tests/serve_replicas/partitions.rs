//! Issue 39: one pipeline shared by two replicas. The intake log is on NATS JetStream with
//! two partitions by `service`; the pipeline's reducer partitions by `service`, so its
//! version runs as two shards, one on each replica. Each service's patterns are reduced on one
//! partition; a replica killed with `kill -9` leaves its shard to the other, and the raw
//! events land in the lake exactly once.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{self, Server};
use crate::takeover::{
    DD_KEY, create_dataset, create_job, driver_of, read_back, replicas_sharing_a_lake, runner_id,
    send_datadog_as,
};
use crate::{database, serial, stream};

const SERVICES: usize = 8;

/// Every event of `dataset` (a synchronous query on `server`), once there are `n` (or after
/// 30 s).
fn read_events(server: &Server, token: &str, dataset: &str, n: usize) -> Vec<Value> {
    let read = json!({
        "name": "read", "execution": "SYNCHRONOUS", "processing": "BATCH",
        "jobGraph": {"vertices": [
            {"type": "logs-iceberg-table-source", "name": "in", "datasetId": dataset},
            {"type": "logs-sync-sink", "name": "out"}], "edges": ["in -> out"]}
    });
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let mut sync = stream::open_sync(server, token, &read);
        let mut events = Vec::new();
        while let Some(record) = sync.next_record() {
            if let Some(beat) = record["heartbeatToken"].as_str() {
                stream::heartbeat(server, token, beat);
            }
            if record["data"].is_object() {
                events.push(record["data"].clone());
            }
        }
        if events.len() >= n || Instant::now() > deadline {
            return events;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The `pipelineStatus.partitions` of `job` once both shards run (each its replica).
fn partitions_running(server: &Server, token: &str, job: &str) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (_, answer) = driver_of(server, token, job);
        let parts = answer["pipelineStatus"]["partitions"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if answer["state"] == "RUNNING"
            && parts.len() == 2
            && parts
                .iter()
                .all(|p| p["replica"].as_str().is_some_and(|r| !r.is_empty()))
        {
            return parts;
        }
        assert!(
            Instant::now() < deadline,
            "not running as 2 partitions: {answer}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn service(i: usize) -> String {
    format!("svc-{i}")
}

/// Sends `per_service` events of each service, half to each replica, messages
/// `{phase}-{service} {i}`; answers the messages.
fn send_all(a: &Server, b: &Server, phase: &str, per_service: usize) -> Vec<String> {
    std::thread::scope(|scope| {
        for i in 0..SERVICES {
            let server = if i % 2 == 0 { a } else { b };
            scope.spawn(move || {
                let svc = service(i);
                send_datadog_as(server, per_service, &format!("{phase}-{svc}"), Some(&svc));
            });
        }
    });
    (0..SERVICES)
        .flat_map(|s| (0..per_service).map(move |i| format!("{phase}-{} {i}", service(s))))
        .collect()
}

#[test]
fn a_pipeline_runs_as_partitions_on_two_replicas_reducing_each_service_on_one_and_survives_kill_9()
{
    let _serial = serial();
    let Some(url) = database("partitions") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (mut a, mut b) = replicas_sharing_a_lake(
        &url,
        dir.path(),
        json!({
            "runner": {"pollMs": 200, "renewMs": 500, "leaseMs": 3000, "checkpointMs": 200,
                       "checkpointEvents": 1000, "batchEvents": 1000, "idlePollMs": 100,
                       "idleCloseMs": 1500},
            "lake": {"batchRows": 250},
            "integrations": [{"id": "dd-agents", "name": "Datadog agents", "type": "datadog",
                              "ingestKey": DD_KEY}],
            "intake": {"nats": {"url": common::nats_url(), "stream": "JG_PARTITIONS",
                                "subjectPrefix": "jg.partitions", "partitions": 2,
                                "partitionByTags": ["service"]}}
        }),
    );
    let token = a.token("ci", "ci-secret");
    let dataset = |name: &str| create_dataset(&a, &token, name);
    let (raw, reduced) = (dataset("raw"), dataset("reduced"));
    let job = create_job(
        &a,
        &token,
        &json!({
            "name": "reduce", "execution": "ASYNCHRONOUS", "processing": "STREAMING",
            "jobGraph": {"vertices": [
                {"type": "datadog-log-agent-source", "name": "agents", "integrationId": "dd-agents"},
                {"type": "logs-iceberg-table-sink", "name": "raw", "datasetId": raw},
                {"type": "log-reducer", "name": "reduce", "partitionByTags": ["service"],
                 "dedupThreshold": 4, "reductionTimeWindow": "PT1H"},
                {"type": "logs-iceberg-table-sink", "name": "reduced", "datasetId": reduced}],
             "edges": ["agents -> raw", "agents -> reduce", "reduce -> reduced"]}}),
    );

    // One shard on each replica.
    let parts = partitions_running(&a, &token, &job);
    let (a_id, b_id) = (runner_id(&a), runner_id(&b));
    let mut owners: Vec<&str> = parts.iter().filter_map(|p| p["replica"].as_str()).collect();
    owners.sort();
    let mut both = vec![a_id.as_str(), b_id.as_str()];
    both.sort();
    assert_eq!(
        owners, both,
        "the shards spread over the replicas: {parts:?}"
    );

    // Each service's events are reduced on one partition: per service, one run of samples and
    // summaries whose time ranges never overlap (two partitions reducing one service in the
    // same window would each send samples and a summary over the same times).
    let warm = send_all(&a, &b, "warm", 50);
    let got = read_back(&a, &token, &raw, "message", warm.len());
    assert_eq!(got.len(), warm.len());
    let deadline = Instant::now() + Duration::from_secs(30);
    let outputs = loop {
        let outputs = read_events(&a, &token, &reduced, 0);
        let summaries = outputs
            .iter()
            .filter(|e| e["tags"]["grepr.messagetype"][0] == "summary")
            .count();
        if summaries >= SERVICES {
            break outputs;
        }
        assert!(
            Instant::now() < deadline,
            "summaries never came ({summaries}): {outputs:?}"
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    let mut by_service: BTreeMap<String, (u64, Vec<(i64, i64)>)> = BTreeMap::new();
    for event in &outputs {
        let svc = event["tags"]["service"][0]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let grepr = &event["attributes"]["grepr"];
        let entry = by_service.entry(svc).or_default();
        match event["tags"]["grepr.messagetype"][0].as_str() {
            Some("sample") => entry.0 += 1,
            Some("summary") => {
                entry.0 += grepr["repeatCount"].as_u64().unwrap_or(0);
                let first = grepr["firstTimeTimestamp"].as_i64().unwrap_or(0);
                let last = grepr["lastTimeTimestamp"].as_i64().unwrap_or(0);
                entry.1.push((first, last));
            }
            other => panic!("unexpected output {other:?}: {event}"),
        }
    }
    assert_eq!(by_service.len(), SERVICES, "{by_service:?}");
    for (svc, (count, mut ranges)) in by_service {
        assert_eq!(count, 50, "{svc}: every event counted once");
        ranges.sort();
        for pair in ranges.windows(2) {
            assert!(
                pair[0].1 < pair[1].0,
                "{svc}: two summaries over the same times (reduced on two partitions): {pair:?}"
            );
        }
    }
    let parts = partitions_running(&a, &token, &job);
    assert!(
        parts
            .iter()
            .all(|p| p["eventsIn"].as_u64().unwrap_or(0) > 0),
        "both partitions read events: {parts:?}"
    );

    // A backlog through both replicas; the replica driving partition 0 is killed once the run
    // checkpointed some of it: the other takes its shard over, and every raw event lands once.
    let before: u64 = parts
        .iter()
        .map(|p| p["checkpoints"].as_u64().unwrap_or(0))
        .sum();
    let backlog = send_all(&a, &b, "backlog", 2500);
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        let (_, answer) = driver_of(&a, &token, &job);
        let status = answer["pipelineStatus"].clone();
        if status["checkpoints"].as_u64().unwrap_or(0) >= before + 4 {
            break status;
        }
        assert!(Instant::now() < deadline, "no checkpoint: {answer}");
        std::thread::sleep(Duration::from_millis(10));
    };
    let victim = status["partitions"][0]["replica"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let (killed_at, survivor, survivor_id) = if victim == a_id {
        a.kill9();
        (Instant::now(), &b, b_id.clone())
    } else {
        b.kill9();
        (Instant::now(), &a, a_id.clone())
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let parts = partitions_running(survivor, &token, &job);
        if parts.iter().all(|p| p["replica"] == survivor_id.as_str()) {
            break;
        }
        assert!(Instant::now() < deadline, "not taken over: {parts:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
    eprintln!(
        "partition taken over after kill -9 of its replica: {:?} (lease 3 s)",
        killed_at.elapsed()
    );
    let after = send_all(survivor, survivor, "after", 100);
    let mut expected: Vec<String> = warm.into_iter().chain(backlog).chain(after).collect();
    expected.sort();
    let got = read_back(survivor, &token, &raw, "message", expected.len());
    assert_eq!(got.len(), expected.len(), "missing or doubled events");
    assert_eq!(got, expected);
    drop(a);
    drop(b);
}
