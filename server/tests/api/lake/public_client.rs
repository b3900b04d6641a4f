//! The public service's own client (`grepr/cli`) reading `POST /v1/jobs/sync` of
//! `jobgraph serve`: the job built as its `query` command builds it (and a synchronous job as
//! `job:create` sends a file), the answer read as its stream parser reads it — records split
//! on `\r\n`; a `RUNNING` record's `data` is one event, counted as one record and drawn as one
//! row; a `FINISHED` record's `data` would be one more event; on `FAILED`, `CANCELLED`,
//! `TIMED_OUT` and `SCANNED_MAX` it prints `data.message` — and each `HEARTBEAT` token posted
//! back as it posts it (the raw token, `Content-Type: application/json`).

use std::path::Path;

use serde_json::{Value, json};

use super::Server;
use super::{
    alice_on, create_dataset, events, expected_ids, ids_of, load, ndjson, open_sync, server,
};

/// The job of the public client's `query --query-engine logs-iceberg-table-source`.
fn client_query(dataset: &str, start: &str, end: &str, query: &str, limit: u64) -> Value {
    json!({
        "name": "query_tool_job_1764190000000",
        "execution": "SYNCHRONOUS",
        "processing": "BATCH",
        "jobGraph": {
            "vertices": [
                {"type": "logs-iceberg-table-source", "name": "source", "datasetId": dataset,
                 "start": start, "end": end,
                 "query": {"type": "datadog-query", "query": query},
                 "sortOrder": "UNSORTED", "limit": limit},
                {"type": "logs-sync-sink", "name": "sink"}
            ],
            "edges": ["source -> sink"]
        },
        "tags": {}
    })
}

/// What the client makes of a run: the events it counts (one per `RUNNING` record with
/// `data`, plus a `FINISHED` record's `data`, which it would count too) and the final record.
struct ClientRun {
    events: Vec<Value>,
    last: Value,
}

/// Runs `job` as the client does and checks every record's shape on the way.
fn run_as_client(server: &Server, token: &str, job: &Value) -> ClientRun {
    let mut stream = open_sync(server, token, job);
    if stream.status != 200 {
        let status = stream.status;
        panic!("status {status}: {}", stream.error_body());
    }
    let mut events = Vec::new();
    let mut last = Value::Null;
    while let Some(record) = stream.next_record() {
        let state = record["jobState"].as_str().unwrap_or_default().to_owned();
        match state.as_str() {
            "HEARTBEAT" => {
                let beat = record["heartbeatToken"].as_str().expect("a token");
                let r = server.request(
                    "POST",
                    "/api/v1/jobs/sync/heartbeat",
                    &[
                        ("Authorization".into(), format!("Bearer {token}")),
                        ("Content-Type".into(), "application/json".into()),
                    ],
                    Some(beat.as_bytes()),
                );
                assert!((200..300).contains(&r.status), "{}", r.body);
            }
            "RUNNING" | "FINISHED" if !record["data"].is_null() => {
                events.push(record["data"].clone());
            }
            _ => {}
        }
        last = record;
    }
    ClientRun { events, last }
}

#[test]
fn each_running_record_is_one_event_the_client_counts() {
    let server = server();
    let token = alice_on(server);
    let dataset = create_dataset(server, &token, "wire", json!({}));
    let all = events(600, "2026-11-18T00:00:00Z", 6);
    load(server, &token, &dataset, &ndjson(&all));
    let (start, end) = ("2026-11-18T00:00:00Z", "2026-11-18T06:00:00Z");
    let run = run_as_client(
        server,
        &token,
        &client_query(&dataset, start, end, "service:checkout", 1000),
    );
    assert_eq!(run.last["jobState"], "FINISHED", "{}", run.last);
    assert!(run.last.get("data").is_none(), "{}", run.last);
    let want = expected_ids(&all, "service:checkout", start, end);
    assert_eq!(want.len(), 120);
    // "Records processed: 120": one record per event, each an event object.
    assert_eq!(run.events.len(), want.len());
    for event in &run.events {
        assert!(event.is_object(), "{event}");
        assert!(event["id"].is_string(), "{event}");
        assert!(!event["eventTimestamp"].is_null(), "{event}");
        assert!(event["message"].is_string(), "{event}");
        assert_eq!(event["tags"]["service"], json!(["checkout"]), "{event}");
    }
    assert_eq!(ids_of(&run.events), want);
    // The client's default limit of 100 records.
    let run = run_as_client(
        server,
        &token,
        &client_query(&dataset, start, end, "service:checkout", 100),
    );
    assert_eq!(run.events.len(), 100);
    assert_eq!(run.last["jobState"], "FINISHED");
}

#[test]
fn a_synchronous_job_of_inline_events_streams_one_record_per_event() {
    // `job:create -f csv` of a SYNCHRONOUS BATCH job: three events, three rows.
    let server = server();
    let token = alice_on(server);
    let job = json!({
        "name": "three_events",
        "execution": "SYNCHRONOUS",
        "processing": "BATCH",
        "jobGraph": {
            "vertices": [
                {"type": "logs-values-source", "name": "values", "values": [
                    {"id": "a", "eventTimestamp": 1764150000000i64, "message": "one", "tags": {}},
                    {"id": "b", "eventTimestamp": 1764150001000i64, "message": "two", "tags": {}},
                    {"id": "c", "eventTimestamp": 1764150002000i64, "message": "three", "tags": {}}
                ]},
                {"type": "logs-sync-sink", "name": "sink"}
            ],
            "edges": ["values -> sink"]
        }
    });
    let run = run_as_client(server, &token, &job);
    assert_eq!(run.last["jobState"], "FINISHED", "{}", run.last);
    let messages: Vec<&str> = run
        .events
        .iter()
        .map(|e| e["message"].as_str().unwrap())
        .collect();
    assert_eq!(messages, ["one", "two", "three"]);
    assert_eq!(run.events[0]["eventTimestamp"], 1764150000000i64);
}

/// Overwrites the middle half of every Parquet file under `dir` with bytes that are not
/// Parquet (the footer stays: the files still open, and fail when read).
fn damage_parquet_files(dir: &Path) -> usize {
    let mut damaged = 0;
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            damaged += damage_parquet_files(&path);
        } else if path.extension().is_some_and(|e| e == "parquet") {
            let mut bytes = std::fs::read(&path).unwrap();
            let n = bytes.len();
            bytes[n / 4..n * 3 / 4].fill(0xAB);
            std::fs::write(&path, bytes).unwrap();
            damaged += 1;
        }
    }
    damaged
}

#[test]
fn a_failed_run_gives_its_reason_as_data_message() {
    let server = server();
    let token = alice_on(server);
    let dataset = create_dataset(server, &token, "damaged", json!({}));
    load(
        server,
        &token,
        &dataset,
        &ndjson(&events(300, "2026-11-17T00:00:00Z", 2)),
    );
    let dir = server
        .data
        .join("db")
        .join("lake")
        .join("acme")
        .join(&dataset);
    assert!(damage_parquet_files(&dir) >= 2, "{}", dir.display());
    let run = run_as_client(
        server,
        &token,
        &client_query(
            &dataset,
            "2026-11-17T00:00:00Z",
            "2026-11-17T02:00:00Z",
            "",
            100,
        ),
    );
    let last = &run.last;
    assert_eq!(last["jobState"], "FAILED", "{last}");
    // What the client prints: "Job failed: <data.message>", not "No additional information".
    let message = last["data"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("reading the lake"), "{last}");
    // Our own client reads the same reason at the top.
    assert_eq!(last["message"], last["data"]["message"]);
}
