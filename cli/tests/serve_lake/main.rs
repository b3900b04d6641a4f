//! The data lake through the real service where the binary matters (issue 22, docs/lake.md):
//! datasets loaded with `jobgraph dataset:load` and read by `jobgraph query`, written by
//! `logs-iceberg-table-sink` jobs and collected at a restart, bounded over a real connection
//! (`SCANNED_MAX`, `TIMED_OUT`, `CANCELLED`), the same files read by DuckDB. The endpoints'
//! behaviour (loads, table names, the public client's reading of the stream, queries and
//! pruning) is tested in process, in `server/tests/api/lake`. One server for the binary
//! (SQLite, or PostgreSQL with `JOBGRAPH_TEST_DATABASE_URL`), a second one with a small scan
//! budget, a third that lets an organization run one lake query at a time. Agents' logs reach
//! the lake through running jobs (`intake.rs`, with the real senders).

#[path = "../common/mod.rs"]
mod common;

mod delivery;
mod duckdb;
mod intake;
mod jetstream;
mod limits;
mod order;
mod queries;
mod receiver;
mod runner;
mod runner_live;
mod stream;
mod writes;

use std::sync::OnceLock;

use common::Server;
use serde_json::{Value, json};

pub use jobgraph_testkit::lake::{data_of, events, expected_ids, ids_of, ndjson, query_job};
pub use stream::{SyncStream, heartbeat, open_sync};

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
        // Jobs claimed, renewed and checkpointed quickly (runner.rs).
        "runner": {"pollMs": 100, "renewMs": 200, "leaseMs": 2000, "checkpointMs": 200,
                   "idlePollMs": 100, "idleCloseMs": 600},
        // Agents send logs with these keys (intake.rs).
        "integrations": intake::integrations(),
    })
}

const CLIENTS: [&str; 4] = [
    "--client",
    "alice:alice-secret:acme",
    "--client",
    "bob:bob-secret:globex",
];

/// The shared server.
pub fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| Server::start_with_config(&settings(None), &CLIENTS))
}

/// A server whose queries may read 150 000 bytes.
pub fn budget_server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| Server::start_with_config(&settings(Some(150_000)), &CLIENTS))
}

/// A server where an organization may have one lake run at a time, and waits 200 ms for it.
pub fn one_run_server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        let mut config = settings(None);
        config["fairness"] = json!({"lakeRunsPerOrganization": 1, "requestWaitMs": 200});
        Server::start_with_config(&config, &CLIENTS)
    })
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
    let r = common::request(
        server.addr,
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

/// `jobgraph` as alice (organization acme) against `server`, with `home` as its HOME.
pub fn jobgraph(server: &Server, home: &std::path::Path) -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_jobgraph"));
    command
        .env("HOME", home)
        .env("JOBGRAPH_API_BASE_URL", server.url())
        .env("JOBGRAPH_CLIENT_ID", "alice")
        .env("JOBGRAPH_CLIENT_SECRET", "alice-secret");
    command
}
