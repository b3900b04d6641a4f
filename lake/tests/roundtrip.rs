//! Events written and scanned back are the same events (`to_value` equal).

mod common;

use common::{canonical, event, request, scan_all, spec, write_all};
use jobgraph_lake::{Lake, Partitioning, WriteOptions};
use jobgraph_model::LogEvent;
use serde_json::{Value, json};

/// Every event of the pipeline conformance corpus that reads as an event.
fn corpus() -> Vec<LogEvent> {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance/pipelines");
    let mut events = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    names.sort();
    for path in names {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
        let file: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
        for case in file["cases"].as_array().into_iter().flatten() {
            for value in case["events"].as_array().into_iter().flatten() {
                if let Ok(event) = LogEvent::from_value(value.clone()) {
                    events.push(event);
                }
            }
        }
    }
    events
}

/// Edge cases written by hand.
fn edge_cases() -> Vec<LogEvent> {
    [
        json!({"id": "no-tags", "eventTimestamp": "2026-11-25T14:00:00Z", "message": "no tags"}),
        json!({"id": "empty-tags", "eventTimestamp": "2026-11-25T14:00:00.123Z", "tags": {}}),
        json!({"id": "multi", "eventTimestamp": "2026-11-25T14:00:00.123456Z", "tags": {"b": ["2", "1", "2"], "a": [], "service": ["x", "y"]}}),
        json!({"id": "epoch", "eventTimestamp": 1764079200000i64, "message": ""}),
        json!({"id": "epoch-negative", "eventTimestamp": -1000}),
        json!({"id": "offset", "eventTimestamp": "2026-11-25T15:00:00+01:00", "severity": 17}),
        json!({"id": "no-zone", "eventTimestamp": "2026-11-25 14:00:00"}),
        json!({"id": "date-only", "eventTimestamp": "2026-11-25"}),
        json!({"id": "bad-calendar", "eventTimestamp": "2026-13-45T99:00:00Z", "receivedTimestamp": 1764079200000i64}),
        json!({"id": "missing-time"}),
        json!({"id": "received-only", "receivedTimestamp": "2026-11-25T14:30:00Z", "message": "r"}),
        json!({"id": "nested", "attributes": {"http": {"status": 503, "headers": {"a": [1, 2.50, {"x": null}]}}, "big": 123456789012345678901234567890u128.to_string()}}),
        json!({"id": "unknown-fields", "type": "log", "source": {"file": "a.log", "line": 7}, "n": 1.0, "z": null, "flag": true}),
        json!({"id": 42, "message": "numeric id"}),
        json!({"id": null, "message": "null id"}),
        json!({"id": "big-severity", "severity": 4294967296u64}),
        json!({"id": "unicode", "message": "ünïcödé ✓ \u{0}", "tags": {"clé": ["välue"]}}),
    ]
    .into_iter()
    .map(event)
    .collect()
}

#[tokio::test]
async fn corpus_and_edge_cases_round_trip_exactly() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let lake = Lake::local(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let mut events = corpus();
    let from_corpus = events.len();
    events.extend(edge_cases());
    let (with_id, without_id): (Vec<_>, Vec<_>) = events.into_iter().partition(|e| e.id.is_some());
    assert!(
        from_corpus > 20,
        "the corpus gave only {from_corpus} events"
    );
    let options = WriteOptions {
        row_group_rows: 7,
        ..WriteOptions::default()
    };
    for partitioning in [
        Partitioning::Hour,
        Partitioning::Day,
        Partitioning::Month,
        Partitioning::Year,
    ] {
        let files = write_all(
            &lake,
            spec(partitioning),
            &format!("run-{partitioning:?}"),
            &with_id,
            options,
        )
        .await;
        let (back, stats) = scan_all(&lake, request(&files, i64::MIN, i64::MAX, vec![], u64::MAX))
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(canonical(&back), canonical(&with_id), "{partitioning:?}");
        // Also equal as `LogEvent`s (attributes as text, an empty `tags` kept), once matched up.
        let mut sorted_back = back.clone();
        sorted_back.sort_by_cached_key(|e| e.to_value().to_string());
        let mut sorted_in = with_id.clone();
        sorted_in.sort_by_cached_key(|e| e.to_value().to_string());
        assert!(
            sorted_back == sorted_in,
            "{partitioning:?}: events differ as LogEvents"
        );
        assert_eq!(stats.files, files.len() as u64);
        println!(
            "{partitioning:?}: {} events, {} files, {} bytes scanned",
            back.len(),
            files.len(),
            stats.bytes_scanned
        );
    }
    // Events without an id get a time-ordered string id; the rest is unchanged.
    let files = write_all(
        &lake,
        spec(Partitioning::Hour),
        "run-no-id",
        &without_id,
        options,
    )
    .await;
    let (back, _) = scan_all(&lake, request(&files, i64::MIN, i64::MAX, vec![], u64::MAX))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.len(), without_id.len());
    let mut ids = std::collections::HashSet::new();
    let stripped: Vec<LogEvent> = back
        .iter()
        .map(|e| {
            let Some(Value::String(id)) = &e.id else {
                panic!("no id assigned: {:?}", e.to_value())
            };
            assert!(ids.insert(id.clone()), "duplicate id {id}");
            let mut e = e.clone();
            e.id = None;
            e
        })
        .collect();
    assert_eq!(canonical(&stripped), canonical(&without_id));
}

#[tokio::test]
async fn time_window_is_half_open_and_files_are_sorted() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let lake = Lake::local(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let t = |s: &str, id: &str| event(json!({"id": id, "eventTimestamp": s}));
    let events = vec![
        t("2026-11-25T14:59:59.999999Z", "c"),
        t("2026-11-25T14:00:00Z", "a"),
        t("2026-11-25T15:00:00Z", "d"),
        t("2026-11-25T14:30:00Z", "b"),
    ];
    let files = write_all(
        &lake,
        spec(Partitioning::Day),
        "run",
        &events,
        WriteOptions::default(),
    )
    .await;
    assert_eq!(files.len(), 1);
    assert_eq!(files[0].row_groups, 2, "a row group ends at the hour");
    assert!(
        files[0]
            .path
            .starts_with("org-1/ds-1/logs/event_day=2026-11-25/run-"),
        "{}",
        files[0].path
    );
    let start = 1_795_615_200_000_000; // 2026-11-25T14:00:00Z
    let (back, _) = scan_all(
        &lake,
        request(&files, start, start + common::HOUR_US, vec![], u64::MAX),
    )
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    let ids: Vec<_> = back.iter().map(|e| e.label(0)).collect();
    assert_eq!(ids, ["a", "b", "c"]);
}
