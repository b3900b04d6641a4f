//! The data lake through the service in process (issue 22, docs/lake.md): datasets loaded with
//! `POST /v1/datasets/{id}/load`, read by synchronous jobs as the public service's own client
//! reads the stream (`public_client.rs`), pruned, table names checked. One service for the
//! module (SQLite, or PostgreSQL with `JOBGRAPH_TEST_DATABASE_URL`). What needs the binary (the
//! `jobgraph` commands, DuckDB on the files, a restart, the limits of runs over a real
//! connection) stays in `cli/tests/serve_lake`.

mod engines;
mod names;
mod public_client;
mod queries;
mod stream;

use std::sync::OnceLock;

pub use crate::harness::Harness as Server;
use serde_json::{Value, json};

pub use jobgraph_testkit::lake::{data_of, events, expected_ids, ids_of, ndjson, query_job};
pub use stream::{heartbeat, open_sync};

/// Heartbeats every 50 ms; a run without one for 1.5 s is cancelled, one of over 5 s times out
/// (margins for 13 tests loading and querying at once on 2 cores).
fn settings(scan_max_bytes: Option<u64>) -> Value {
    let mut lake = json!({"queryTimeoutMs": 5000});
    if let Some(bytes) = scan_max_bytes {
        lake["scanMaxBytes"] = json!(bytes);
    }
    json!({
        "syncRuns": {"heartbeatIntervalMs": 50, "heartbeatTimeoutMs": 1500},
        "lake": lake,
    })
}

const CLIENTS: &[(&str, &str, &str)] = &[
    ("alice", "alice-secret", "acme"),
    ("bob", "bob-secret", "globex"),
];

/// The shared server.
pub fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| Server::start(CLIENTS, settings(None)))
}

/// A token of `alice` (organization acme) on `server`.
pub fn alice_on(server: &Server) -> String {
    server.token("alice", "alice-secret")
}

/// A token of `bob` (organization globex) on `server`.
pub fn bob_on(server: &Server) -> String {
    server.token("bob", "bob-secret")
}

/// Creates a dataset named `name` (plus a unique suffix) and returns its id.
pub fn create_dataset(server: &Server, token: &str, name: &str, extra: Value) -> String {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut body = json!({"name": format!("{name}-{n}")});
    if let (Value::Object(body), Value::Object(extra)) = (&mut body, extra) {
        body.extend(extra);
    }
    let r = server.call("POST", "/v1/datasets", Some(token), Some(&body));
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()["id"].as_str().expect("id").to_owned()
}

/// Loads NDJSON into a dataset; the answer's JSON.
pub fn load(server: &Server, token: &str, dataset: &str, ndjson: &str) -> Value {
    let r = server.request(
        "POST",
        &format!("/v1/datasets/{dataset}/load"),
        &[
            ("Authorization".into(), format!("Bearer {token}")),
            ("Content-Type".into(), "application/x-ndjson".into()),
        ],
        Some(ndjson.as_bytes()),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

/// The committed files of a dataset (`GET /v1/datasets/{id}/files`, every page).
pub fn files(server: &Server, token: &str, dataset: &str) -> Vec<Value> {
    let r = server.call(
        "GET",
        &format!("/v1/datasets/{dataset}/files?limit=1000"),
        Some(token),
        None,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["items"].as_array().expect("items").clone()
}

/// Runs a synchronous job to its end as the public client does (reading promptly, posting
/// each heartbeat token back); its records.
pub fn run_sync(server: &Server, token: &str, job: &Value) -> Vec<Value> {
    let mut stream = open_sync(server, token, job);
    if stream.status != 200 {
        let body = stream.error_body();
        panic!("status {}: {body}", stream.status);
    }
    let mut records = Vec::new();
    while let Some(record) = stream.next_record() {
        if let Some(beat) = record["heartbeatToken"].as_str() {
            heartbeat(server, token, beat);
        }
        records.push(record);
    }
    records
}

/// How many files the lake holds for `dataset` of `organization`.
pub(crate) fn lake_objects(server: &Server, organization: &str, dataset: &str) -> usize {
    jobgraph_testkit::lake::lake_objects(&server.data.join("db"), organization, dataset)
}
