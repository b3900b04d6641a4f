//! The lake's test data: events loaded into datasets, what a query of them must return, the
//! public client's query job, and the files the lake holds.

use std::path::Path;

use jobgraph_core::pipeline::{LogEvent, Query};
use serde_json::{Value, json};

/// `n` events over `hours` hours from `start` (ISO 8601), in time order: services, levels and
/// hosts vary deterministically; every fifth event is `checkout`.
pub fn events(n: usize, start: &str, hours: i64) -> Vec<Value> {
    let start: jiff::Timestamp = start.parse().unwrap();
    let span = hours * 3_600_000;
    let services = ["checkout", "cart", "search", "auth", "web"];
    let levels = ["info", "info", "warn", "info", "error", "info", "debug"];
    (0..n)
        .map(|i| {
            let at = start
                .checked_add(jiff::SignedDuration::from_millis(
                    span * i as i64 / n as i64,
                ))
                .unwrap();
            json!({
                "id": format!("ev-{i:07}"),
                "eventTimestamp": at.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string(),
                "message": format!("request {i} served"),
                "tags": {
                    "service": [services[i % 5]],
                    "level": [levels[i % 7]],
                    "host": [format!("host-{}", i % 13)],
                },
                "attributes": {"http": {"status": 200 + (i % 5) * 100}},
            })
        })
        .collect()
}

/// The events as NDJSON.
pub fn ndjson(events: &[Value]) -> String {
    events.iter().map(|e| format!("{e}\n")).collect()
}

/// The ids of `events` that `query` matches with an `eventTimestamp` in `[start, end)`.
pub fn expected_ids(events: &[Value], query: &str, start: &str, end: &str) -> Vec<String> {
    let query = Query::parse(query).unwrap();
    let (start, end): (jiff::Timestamp, jiff::Timestamp) =
        (start.parse().unwrap(), end.parse().unwrap());
    let mut ids: Vec<String> = events
        .iter()
        .filter(|e| {
            let at: jiff::Timestamp = e["eventTimestamp"].as_str().unwrap().parse().unwrap();
            at >= start && at < end && query.matches(&LogEvent::from_value((*e).clone()).unwrap())
        })
        .map(|e| e["id"].as_str().unwrap().to_owned())
        .collect();
    ids.sort();
    ids
}

/// A synchronous job reading `dataset`, as the public client's `query` builds it.
pub fn query_job(dataset: &str, start: &str, end: &str, query: &str, limit: u64) -> Value {
    json!({
        "name": "query",
        "execution": "SYNCHRONOUS",
        "processing": "BATCH",
        "jobGraph": {
            "vertices": [
                {"type": "logs-iceberg-table-source", "name": "source", "datasetId": dataset,
                 "start": start, "end": end, "limit": limit, "sortOrder": "UNSORTED",
                 "query": {"type": "simple-query", "query": query}},
                {"type": "logs-sync-sink", "name": "sink"}
            ],
            "edges": ["source -> sink"]
        }
    })
}

/// The events of `RUNNING` records: one each, as the public client reads them (a record
/// whose `data` is an array fails the test).
pub fn data_of(records: &[Value]) -> Vec<Value> {
    records
        .iter()
        .filter(|r| r["jobState"] == "RUNNING" && !r["data"].is_null())
        .map(|r| {
            assert!(r["data"].is_object(), "one event per record: {r}");
            r["data"].clone()
        })
        .collect()
}

/// The sorted ids of `events`.
pub fn ids_of(events: &[Value]) -> Vec<String> {
    let mut ids: Vec<String> = events
        .iter()
        .map(|e| e["id"].as_str().unwrap_or_default().to_owned())
        .collect();
    ids.sort();
    ids
}

/// How many files the lake under data folder `data` holds for `dataset` of `organization`.
pub fn lake_objects(data: &Path, organization: &str, dataset: &str) -> usize {
    fn count(dir: &Path) -> usize {
        std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .flatten()
                    .map(|e| {
                        let path = e.path();
                        if path.is_dir() { count(&path) } else { 1 }
                    })
                    .sum()
            })
            .unwrap_or(0)
    }
    count(&data.join("lake").join(organization).join(dataset))
}
