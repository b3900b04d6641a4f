//! Sorted scans: files whose time ranges overlap (several loads, mixed partitionings, small
//! row groups) merged oldest first or newest first, with the window and tag constraints.

mod common;

use common::{BASE_US, HOUR_US, event, request, scan_all, spec, write_all};
use jobgraph_lake::{Lake, Partitioning, ScanOrder, WriteOptions};
use jobgraph_model::LogEvent;
use serde_json::json;

const LOADS: i64 = 3;
const PER_LOAD: i64 = 600;
/// Milliseconds between two events of the scan's merged order.
const STEP_MS: i64 = 7_000;

/// Load `k`'s events: every `LOADS`-th slot from slot `k`, so that every load's files overlap
/// every other's in time. Times are distinct across loads.
fn load(k: i64) -> Vec<LogEvent> {
    (0..PER_LOAD)
        .map(|j| {
            let slot = j * LOADS + k;
            let ms = BASE_US / 1000 + slot * STEP_MS;
            let service = ["alpha", "beta", "gamma"][(slot % 3) as usize];
            let level = ["info", "warn", "error", "debug", "info"][(slot % 5) as usize];
            event(json!({
                "id": format!("e{slot:05}"),
                "eventTimestamp": ms,
                "message": format!("slot {slot}"),
                "tags": {
                    "service": [service],
                    "level": [level],
                },
            }))
        })
        .collect()
}

fn ids(events: &[LogEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| e.id.as_ref().and_then(|id| id.as_str()).map(str::to_owned))
        .collect()
}

#[tokio::test]
async fn overlapping_files_merge_oldest_or_newest_first() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let lake = Lake::local(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let small_groups = WriteOptions {
        row_group_rows: 37,
        ..WriteOptions::default()
    };
    let mut files = Vec::new();
    for k in 0..LOADS {
        // One load is partitioned by day: its file overlaps the others' hourly files.
        let partitioning = if k == 1 {
            Partitioning::Day
        } else {
            Partitioning::Hour
        };
        let events = load(k);
        files.extend(
            write_all(
                &lake,
                spec(partitioning),
                &format!("load-{k}"),
                &events,
                small_groups,
            )
            .await,
        );
    }
    assert!(files.len() >= 7, "hourly and daily files: {}", files.len());
    let all: Vec<String> = (0..LOADS * PER_LOAD).map(|s| format!("e{s:05}")).collect();

    let scan = |start: i64, end: i64, constraints, order, batch_rows| {
        let mut r = request(&files, start, end, constraints, u64::MAX);
        r.order = order;
        r.batch_rows = batch_rows;
        scan_all(&lake, r)
    };

    // Files order: every event once, but not in time order (the loads interleave).
    let (back, _) = scan(i64::MIN, i64::MAX, vec![], ScanOrder::Files, 50)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let mut unsorted = ids(&back);
    assert_ne!(unsorted, all, "the loads' files interleave in time");
    unsorted.sort();
    assert_eq!(unsorted, all);

    for batch_rows in [1, 13, 1000] {
        let (back, _) = scan(i64::MIN, i64::MAX, vec![], ScanOrder::Ascending, batch_rows)
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ids(&back), all, "ascending, batches of {batch_rows}");
        let (back, _) = scan(
            i64::MIN,
            i64::MAX,
            vec![],
            ScanOrder::Descending,
            batch_rows,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
        let mut newest_first = all.clone();
        newest_first.reverse();
        assert_eq!(
            ids(&back),
            newest_first,
            "descending, batches of {batch_rows}"
        );
    }

    // A window across an hour boundary, and a tag constraint.
    let start = BASE_US + HOUR_US - 300 * STEP_MS * 1000;
    let end = BASE_US + 2 * HOUR_US + 100 * STEP_MS * 1000 + 1;
    let constraints = vec![
        vec![
            ("level".to_owned(), "warn".to_owned()),
            ("level".to_owned(), "error".to_owned()),
        ],
        vec![("service".to_owned(), "beta".to_owned())],
    ];
    let expected: Vec<String> = (0..LOADS * PER_LOAD)
        .filter(|slot| {
            let us = BASE_US + slot * STEP_MS * 1000;
            us >= start && us < end && slot % 3 == 1 && matches!(slot % 5, 1 | 2)
        })
        .map(|s| format!("e{s:05}"))
        .collect();
    assert!(expected.len() > 20, "{}", expected.len());
    let (back, _) = scan(start, end, constraints.clone(), ScanOrder::Ascending, 8)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ids(&back), expected);
    let (back, stats) = scan(start, end, constraints, ScanOrder::Descending, 8)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let mut newest_first = expected.clone();
    newest_first.reverse();
    assert_eq!(ids(&back), newest_first);
    assert!(
        stats.row_groups_scanned < stats.row_groups,
        "time pruning still applies: {stats:?}"
    );
}
