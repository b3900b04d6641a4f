//! Writing datasets: `logs-iceberg-table-sink` jobs commit what reached them at once, or
//! nothing; `jobgraph dataset:load` streams a file.

use serde_json::json;

use crate::{
    alice_on, budget_server, create_dataset, data_of, events, files, ids_of, load, ndjson,
    run_sync, server,
};

pub(crate) fn lake_objects(
    server: &crate::common::Server,
    organization: &str,
    dataset: &str,
) -> usize {
    jobgraph_testkit::lake::lake_objects(&server.data.join("db"), organization, dataset)
}

#[test]
fn a_sink_job_commits_what_reached_its_sink_and_queries_see_it() {
    let server = server();
    let token = alice_on(server);
    let dataset = create_dataset(server, &token, "sunk", json!({}));
    let values = events(300, "2026-11-22T00:00:00Z", 5);
    let job = json!({
        "name": "keep-errors", "execution": "SYNCHRONOUS", "processing": "BATCH",
        "jobGraph": {"vertices": [
            {"type": "logs-values-source", "name": "in", "values": values},
            {"type": "logs-filter", "name": "errors", "query": {"type": "simple-query", "query": "level:error"}},
            {"type": "logs-iceberg-table-sink", "name": "archive", "datasetId": dataset}],
         "edges": ["in -> errors", "errors -> archive"]}
    });
    let records = run_sync(server, &token, &job);
    let last = records.last().unwrap();
    assert_eq!(last["jobState"], "FINISHED", "{records:?}");
    let errors: Vec<_> = values
        .iter()
        .filter(|e| e["tags"]["level"][0] == "error")
        .cloned()
        .collect();
    assert_eq!(last["written"]["archive"]["events"], errors.len(), "{last}");
    assert!(
        data_of(&records).is_empty(),
        "a lake sink's events are written, not sent back"
    );

    let read = json!({
        "name": "read", "execution": "SYNCHRONOUS", "processing": "BATCH",
        "jobGraph": {"vertices": [
            {"type": "logs-iceberg-table-source", "name": "in", "datasetId": dataset},
            {"type": "logs-sync-sink", "name": "out"}], "edges": ["in -> out"]}
    });
    assert_eq!(
        ids_of(&data_of(&run_sync(server, &token, &read))),
        ids_of(&errors)
    );
}

#[test]
fn a_run_that_does_not_finish_leaves_no_file_behind() {
    // On the server with a 150 KB scan budget: copying a dataset bigger than that stops at
    // SCANNED_MAX after the sink has written part of it.
    let server = budget_server();
    let token = alice_on(server);
    let source = create_dataset(server, &token, "big", json!({}));
    load(
        server,
        &token,
        &source,
        &ndjson(&events(20_000, "2026-11-01T00:00:00Z", 48)),
    );
    let target = create_dataset(server, &token, "copy", json!({}));
    let job = json!({
        "name": "copy", "execution": "SYNCHRONOUS", "processing": "BATCH",
        "jobGraph": {"vertices": [
            {"type": "logs-iceberg-table-source", "name": "in", "datasetId": source},
            {"type": "logs-iceberg-table-sink", "name": "out", "datasetId": target}],
         "edges": ["in -> out"]}
    });
    let records = run_sync(server, &token, &job);
    let last = records.last().unwrap();
    assert_eq!(last["jobState"], "SCANNED_MAX", "{records:?}");
    assert!(
        files(server, &token, &target).is_empty(),
        "nothing committed"
    );
    assert_eq!(lake_objects(server, "acme", &target), 0, "and no file left");
}

#[test]
fn dataset_load_streams_a_file_into_a_dataset() {
    let server = server();
    let token = alice_on(server);
    let dataset = create_dataset(server, &token, "loaded", json!({}));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("events.ndjson");
    let all = events(5000, "2026-11-23T00:00:00Z", 10);
    std::fs::write(&file, ndjson(&all)).unwrap();
    let out = crate::jobgraph(server, dir.path())
        .args(["dataset:load", &dataset])
        .arg(&file)
        .args(["-f", "compact"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["events"], 5000, "{answer}");
    let rows: u64 = files(server, &token, &dataset)
        .iter()
        .map(|f| f["rows"].as_u64().unwrap())
        .sum();
    assert_eq!(rows, 5000);
}

#[test]
fn files_no_manifest_names_are_collected_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let orphan = data.join("db/lake/acme/ds-gone/logs/event_hour=2026-11-20-10/crashed-0.parquet");
    std::fs::create_dir_all(orphan.parent().unwrap()).unwrap();
    std::fs::write(&orphan, b"PAR1 left by a crash").unwrap();
    let config = dir.path().join("config.json");
    std::fs::write(&config, r#"{"lake": {"gcGraceSeconds": 0}}"#).unwrap();
    let server = crate::common::Server::start_in(
        &data,
        &[
            "--config",
            config.to_str().unwrap(),
            "--client",
            "alice:alice-secret:acme",
        ],
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while orphan.exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(!orphan.exists(), "log: {}", server.log());
    assert_eq!(
        server.wait_log_lines(&["deleted 1 file(s) no manifest names"], 1),
        1
    );
}
