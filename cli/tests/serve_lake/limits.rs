//! A query's bounds: the scan budget (`SCANNED_MAX`), the time limit (`TIMED_OUT`), the
//! client's heartbeats (`CANCELLED`), and an organization's lake runs at once.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::{
    alice_on, bob_on, budget_server, create_dataset, events, load, ndjson, one_run_server,
    open_sync, query_job, run_sync, server,
};

/// A dataset whose full read is ~12 MB of records: more than the socket and the run's channel
/// hold, so a client that stops reading stops the run.
fn big_dataset(server: &crate::common::Server, token: &str) -> String {
    let dataset = create_dataset(server, token, "wide", json!({}));
    let mut all = events(60_000, "2026-11-15T00:00:00Z", 6);
    for e in &mut all {
        e["attributes"]["padding"] = json!("x".repeat(120));
    }
    load(server, token, &dataset, &ndjson(&all));
    dataset
}

fn whole(dataset: &str) -> Value {
    query_job(
        dataset,
        "2026-11-15T00:00:00Z",
        "2026-11-16T00:00:00Z",
        "*",
        1_000_000,
    )
}

#[test]
fn a_query_past_the_scan_budget_ends_scanned_max() {
    let server = budget_server();
    let token = alice_on(server);
    let dataset = create_dataset(server, &token, "budget", json!({}));
    load(
        server,
        &token,
        &dataset,
        &ndjson(&events(20_000, "2026-11-01T00:00:00Z", 48)),
    );
    let job = query_job(
        &dataset,
        "2026-11-01T00:00:00Z",
        "2026-11-04T00:00:00Z",
        "*",
        1_000_000,
    );
    let records = crate::run_sync(server, &token, &job);
    let last = records.last().unwrap();
    assert_eq!(last["jobState"], "SCANNED_MAX", "{last}");
    assert!(
        last["message"]
            .as_str()
            .unwrap()
            .starts_with("Hit data scan limit"),
        "{last}"
    );
    assert!(
        last["scan"]["bytesScanned"].as_u64().unwrap() <= 150_000,
        "{last}"
    );

    // The command line names it and fails.
    let home = tempfile::tempdir().unwrap();
    let out = crate::jobgraph(server, home.path())
        .args([
            "query",
            "--dataset-id",
            &dataset,
            "--start",
            "2026-11-01T00:00:00Z",
        ])
        .args([
            "--end",
            "2026-11-04T00:00:00Z",
            "--limit",
            "1000000",
            "-f",
            "raw",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("[SCANNED_MAX]") && stderr.contains("Hit data scan limit"),
        "{stderr}"
    );
}

#[test]
fn a_client_that_stops_posting_heartbeats_is_cancelled() {
    let server = server();
    let token = alice_on(server);
    let dataset = big_dataset(server, &token);
    let mut stream = open_sync(server, &token, &whole(&dataset));
    assert_eq!(stream.status, 200);
    // Neither reads nor posts for longer than heartbeatTimeoutMs (1500): the run, waiting for
    // the reader, is cancelled at 1.5 s, before the query's time limit (5 s).
    std::thread::sleep(Duration::from_millis(2500));
    let records = stream.read_all();
    let last = records.last().unwrap();
    assert_eq!(last["jobState"], "CANCELLED", "{last}");
    assert!(
        last["message"].as_str().unwrap().contains("no heartbeat"),
        "{last}"
    );
    let sent = crate::data_of(&records).len();
    assert!(sent < 60_000, "the run stopped early: {sent} events sent");
}

#[test]
fn a_run_past_its_time_limit_times_out() {
    let server = server();
    let token = alice_on(server);
    let dataset = big_dataset(server, &token);
    let started = Instant::now();
    let mut stream = open_sync(server, &token, &whole(&dataset));
    assert_eq!(stream.status, 200);
    // Read up to the first heartbeat token, then keep posting it while reading nothing: the
    // client is alive, but the run cannot go on, and 5 s after its start it times out.
    let token_of_run = loop {
        let record = stream.next_record().expect("a heartbeat before the end");
        if let Some(t) = record["heartbeatToken"].as_str() {
            break t.to_owned();
        }
    };
    let deadline = Instant::now() + Duration::from_millis(6000);
    while Instant::now() < deadline {
        crate::heartbeat(server, &token, &token_of_run);
        std::thread::sleep(Duration::from_millis(100));
    }
    let records = stream.read_all();
    let last = records.last().unwrap();
    assert_eq!(last["jobState"], "TIMED_OUT", "{last}");
    assert!(started.elapsed() >= Duration::from_millis(5000));
}

#[test]
fn an_organization_runs_at_most_its_lake_runs_at_once_and_others_are_not_held_up() {
    let server = one_run_server();
    let alice = alice_on(server);
    let bob = bob_on(server);
    let big = big_dataset(server, &alice);
    let small = |token: &str| {
        let dataset = create_dataset(server, token, "small", json!({}));
        load(
            server,
            token,
            &dataset,
            &ndjson(&events(50, "2026-11-15T00:00:00Z", 1)),
        );
        dataset
    };
    let (alices, bobs) = (small(&alice), small(&bob));

    // Alice's first run streams 12 MB to a reader that reads only its heartbeat tokens: it
    // holds her one place while it lives.
    let mut first = open_sync(server, &alice, &whole(&big));
    assert_eq!(first.status, 200);
    let beat = loop {
        let record = first.next_record().expect("a heartbeat before the end");
        if let Some(t) = record["heartbeatToken"].as_str() {
            break t.to_owned();
        }
    };
    crate::heartbeat(server, &alice, &beat);
    let second = server.call("POST", "/v1/jobs/sync", Some(&alice), Some(&whole(&alices)));
    assert_eq!(second.status, 429, "{}", second.body);
    assert_eq!(second.header("Retry-After"), Some("1"));
    assert!(
        second
            .body
            .contains("already has 1 synchronous runs reading or writing the lake"),
        "{}",
        second.body
    );
    // A job without the lake does not need a lake place.
    let inline = json!({
        "name": "inline", "execution": "SYNCHRONOUS", "processing": "BATCH",
        "jobGraph": {"vertices": [
            {"type": "logs-values-source", "name": "v", "values": [{"message": "hi"}]},
            {"type": "logs-sync-sink", "name": "o"}], "edges": ["v -> o"]}
    });
    let records = run_sync(server, &alice, &inline);
    assert_eq!(records.last().unwrap()["jobState"], "FINISHED");
    // Another organization is not held up.
    crate::heartbeat(server, &alice, &beat);
    let records = run_sync(server, &bob, &whole(&bobs));
    assert_eq!(
        records.last().unwrap()["jobState"],
        "FINISHED",
        "{records:?}"
    );
    assert_eq!(crate::data_of(&records).len(), 50);

    // Once the first run ends (its client went away), Alice's next run gets the place.
    drop(first);
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let r = server.call("POST", "/v1/jobs/sync", Some(&alice), Some(&whole(&alices)));
        if r.status == 200 {
            assert!(r.body.contains("\"FINISHED\""), "{}", r.body);
            break;
        }
        assert_eq!(r.status, 429, "{}", r.body);
        assert!(Instant::now() < deadline, "the place was never given back");
        std::thread::sleep(Duration::from_millis(100));
    }
}
