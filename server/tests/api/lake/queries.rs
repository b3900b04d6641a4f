//! Reading datasets: the public client's query job, `jobgraph query`, pruning, round trips,
//! organizations.

use jobgraph_core::pipeline::LogEvent;
use serde_json::json;

use super::{
    alice_on, bob_on, create_dataset, data_of, events, expected_ids, files, ids_of, load, ndjson,
    query_job, run_sync, server,
};

const QUERY: &str = "(level:warn OR level:error) AND service:checkout";

#[test]
fn the_public_clients_query_job_returns_exactly_the_matching_events_of_the_range() {
    let server = server();
    let token = alice_on(server);
    let dataset = create_dataset(server, &token, "checkout", json!({}));
    let all = events(6000, "2026-11-20T00:00:00Z", 72);
    let loaded = load(server, &token, &dataset, &ndjson(&all));
    assert_eq!(loaded["events"], 6000, "{loaded}");
    assert!(
        loaded["files"].as_u64().unwrap() >= 72,
        "hour partitions: {loaded}"
    );

    let (start, end) = ("2026-11-21T04:00:00Z", "2026-11-21T14:30:00Z");
    let records = run_sync(
        server,
        &token,
        &query_job(&dataset, start, end, QUERY, 100_000),
    );
    let last = records.last().unwrap();
    assert_eq!(last["jobState"], "FINISHED", "{records:?}");
    let want = expected_ids(&all, QUERY, start, end);
    assert!(
        want.len() > 20,
        "the query must select something: {}",
        want.len()
    );
    assert_eq!(ids_of(&data_of(&records)), want);
    let scan = &last["scan"];
    assert!(
        scan["filesScanned"].as_u64().unwrap() <= 11,
        "hour files of the range: {scan}"
    );
    assert!(scan["bytesScanned"].as_u64().unwrap() > 0, "{scan}");

    // `limit` stops the run at that many events.
    let records = run_sync(server, &token, &query_job(&dataset, start, end, QUERY, 7));
    assert_eq!(data_of(&records).len(), 7);
    assert_eq!(records.last().unwrap()["jobState"], "FINISHED");
}

#[test]
fn one_hour_of_thirty_days_reads_at_most_a_fiftieth_of_the_bytes() {
    let server = server();
    let token = alice_on(server);
    let dataset = create_dataset(server, &token, "month", json!({"partitioning": "DAY"}));
    let all = events(30 * 24 * 20, "2026-10-26T00:00:00Z", 30 * 24);
    load(server, &token, &dataset, &ndjson(&all));
    let total: u64 = files(server, &token, &dataset)
        .iter()
        .map(|f| f["bytes"].as_u64().unwrap())
        .sum();
    let (start, end) = ("2026-11-10T14:00:00Z", "2026-11-10T15:00:00Z");
    let records = run_sync(
        server,
        &token,
        &query_job(&dataset, start, end, QUERY, 100_000),
    );
    let last = records.last().unwrap();
    assert_eq!(last["jobState"], "FINISHED", "{last}");
    assert_eq!(
        ids_of(&data_of(&records)),
        expected_ids(&all, QUERY, start, end)
    );
    let scanned = last["scan"]["bytesScanned"].as_u64().unwrap();
    println!(
        "one hour of 30 days (DAY partitions): {scanned} bytes read of {total} ({:.4})",
        scanned as f64 / total as f64
    );
    assert!(scanned * 50 <= total, "{scanned} of {total}: {last}");
}

#[test]
fn events_come_back_as_they_were_loaded() {
    let server = server();
    let token = alice_on(server);
    let dataset = create_dataset(server, &token, "shapes", json!({}));
    let varied = vec![
        json!({"id": "a", "eventTimestamp": "2026-11-20T10:00:00Z", "message": "plain"}),
        json!({"id": "b", "eventTimestamp": 1763632800123u64, "message": "epoch ms", "tags": {}}),
        json!({"id": "c", "eventTimestamp": "2026-11-20T11:00:00.5+01:00", "severity": 17,
               "tags": {"service": ["x", "y"], "zeta": ["1"], "alpha": []},
               "attributes": {"nested": {"list": [1, 2.50, {"k": null}]}, "s": "é\u{1F600}"},
               "receivedTimestamp": "2026-11-20T10:00:01Z", "custom": {"keep": true}, "n": 1.50}),
        json!({"id": "d", "eventTimestamp": "2026-11-20T10:30:00.123456Z", "message": "",
               "tags": {"level": ["error"]}}),
    ];
    load(server, &token, &dataset, &ndjson(&varied));
    let job = json!({
        "name": "all", "execution": "SYNCHRONOUS", "processing": "BATCH",
        "jobGraph": {"vertices": [
            {"type": "logs-iceberg-table-source", "name": "in", "datasetId": dataset},
            {"type": "logs-sync-sink", "name": "out"}], "edges": ["in -> out"]}
    });
    let records = run_sync(server, &token, &job);
    let mut got = data_of(&records);
    got.sort_by(|a, b| a["id"].as_str().cmp(&b["id"].as_str()));
    assert_eq!(got.len(), 4, "{records:?}");
    for (got, want) in got.iter().zip(&varied) {
        // As the pipeline writes an event it read (`receivedTimestamp` after
        // `eventTimestamp`), byte for byte.
        let want = LogEvent::from_value(want.clone()).unwrap().to_value();
        assert_eq!(got.to_string(), want.to_string(), "byte for byte");
    }
}

#[test]
fn datasets_belong_to_their_organization_and_the_job_names_what_is_wrong() {
    let server = server();
    let alice = alice_on(server);
    let bob = bob_on(server);
    let dataset = create_dataset(server, &alice, "private", json!({}));
    load(
        server,
        &alice,
        &dataset,
        &ndjson(&events(10, "2026-11-20T00:00:00Z", 1)),
    );
    let records = server.call(
        "POST",
        "/v1/jobs/sync",
        Some(&bob),
        Some(&query_job(
            &dataset,
            "2026-11-20T00:00:00Z",
            "2026-11-21T00:00:00Z",
            "*",
            10,
        )),
    );
    assert_eq!(records.status, 400, "{}", records.body);
    assert!(
        records
            .body
            .contains("is not a dataset of your organization"),
        "{}",
        records.body
    );
    let r = server.request(
        "POST",
        &format!("/v1/datasets/{dataset}/load"),
        &[("Authorization".into(), format!("Bearer {bob}"))],
        Some(b"{\"message\":\"intruder\"}\n"),
    );
    assert_eq!(r.status, 404, "{}", r.body);

    // A table source that names no dataset, and a bad time, are 400s naming the vertex.
    let mut job = query_job(
        &dataset,
        "2026-11-20T00:00:00Z",
        "2026-11-21T00:00:00Z",
        "*",
        10,
    );
    let source = &mut job["jobGraph"]["vertices"][0];
    source.as_object_mut().unwrap().remove("datasetId");
    source["table"] = json!("logs");
    let r = server.call("POST", "/v1/jobs/sync", Some(&alice), Some(&job));
    assert_eq!(r.status, 400);
    assert!(
        r.body
            .contains("vertex source reads table \\\"logs\\\" but names no dataset"),
        "{}",
        r.body
    );
    let mut job = query_job(&dataset, "yesterday", "2026-11-21T00:00:00Z", "*", 10);
    let r = server.call("POST", "/v1/jobs/sync", Some(&alice), Some(&job));
    assert_eq!(r.status, 400);
    assert!(
        r.body
            .contains("`start` \\\"yesterday\\\" is not an ISO 8601 time"),
        "{}",
        r.body
    );
    job["jobGraph"]["vertices"][0]["start"] = json!("2026-11-22T00:00:00Z");
    let r = server.call("POST", "/v1/jobs/sync", Some(&alice), Some(&job));
    assert_eq!(r.status, 400);
    assert!(r.body.contains("`start` is not before `end`"), "{}", r.body);

    // A bad line fails the whole load and commits nothing.
    let before = files(server, &alice, &dataset).len();
    let r = server.request(
        "POST",
        &format!("/v1/datasets/{dataset}/load"),
        &[("Authorization".into(), format!("Bearer {alice}"))],
        Some(
            b"{\"message\":\"fine\",\"eventTimestamp\":\"2026-11-20T05:00:00Z\"}\n{\"tags\": 7}\n",
        ),
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.body.contains("line 2 of the body is not an event"),
        "{}",
        r.body
    );
    assert_eq!(files(server, &alice, &dataset).len(), before);
}
