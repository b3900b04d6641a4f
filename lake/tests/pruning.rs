//! Pruning on 30 days of hourly data: time (files, row groups), tags (file stats, leaf
//! statistics, bloom filters), and the scan budget.

mod common;

use common::{BASE_US, HOUR_US, hourly, request, scan_all, spec, write_all};
use jobgraph_lake::{Lake, LakeError, Partitioning, WriteOptions};

const HOURS: i64 = 30 * 24;
const PER_HOUR: i64 = 300;
/// The hour holding the only `aardvark` event.
const RARE_HOUR: i64 = 400;

#[tokio::test]
async fn one_hour_of_thirty_days_reads_under_a_fiftieth() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let lake = Lake::local(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let events = hourly(HOURS, PER_HOUR, RARE_HOUR);
    for partitioning in [Partitioning::Hour, Partitioning::Day] {
        let files = write_all(
            &lake,
            spec(partitioning),
            "load",
            &events,
            WriteOptions::default(),
        )
        .await;
        let total: u64 = files.iter().map(|f| f.bytes).sum();
        let start = BASE_US + 100 * HOUR_US;
        let (back, stats) = scan_all(
            &lake,
            request(&files, start, start + HOUR_US, vec![], u64::MAX),
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back.len() as i64, PER_HOUR);
        assert!(back.iter().all(|e| e.label(0).starts_with("e-100-")));
        println!(
            "{partitioning:?}: {} events in {} files, {total} bytes; one hour: {} bytes scanned (1/{}), {} files, {} of {} row groups, {} bytes in range",
            events.len(),
            files.len(),
            stats.bytes_scanned,
            total / stats.bytes_scanned.max(1),
            stats.files_scanned,
            stats.row_groups_scanned,
            stats.row_groups,
            stats.bytes_in_range,
        );
        assert!(
            stats.bytes_scanned * 50 <= total,
            "{} of {total} bytes",
            stats.bytes_scanned
        );
        assert_eq!(stats.row_groups_scanned, 1);
        assert_eq!(stats.files_scanned, 1);
        // A window straddling an hour boundary reads two row groups.
        let (back, stats) = scan_all(
            &lake,
            request(
                &files,
                start + HOUR_US / 2,
                start + 3 * HOUR_US / 2,
                vec![],
                u64::MAX,
            ),
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back.len() as i64, PER_HOUR);
        assert_eq!(stats.row_groups_scanned, 2);
        assert!(stats.bytes_scanned * 50 <= total);
    }
}

#[tokio::test]
async fn tags_prune_files_row_groups_and_by_bloom_filter() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let lake = Lake::local(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let events = hourly(HOURS, PER_HOUR, RARE_HOUR);
    let files = write_all(
        &lake,
        spec(Partitioning::Day),
        "load",
        &events,
        WriteOptions::default(),
    )
    .await;
    assert_eq!(files.len(), 30);
    let total: u64 = files.iter().map(|f| f.bytes).sum();
    let tag = |k: &str, v: &str| vec![vec![(k.to_owned(), v.to_owned())]];

    // `zulu` is above every file's max: no file is opened, no byte read.
    let (back, stats) = scan_all(
        &lake,
        request(&files, i64::MIN, i64::MAX, tag("service", "zulu"), u64::MAX),
    )
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(back.is_empty());
    assert_eq!((stats.files_scanned, stats.bytes_scanned), (0, 0));

    // `aardvark` is below every other file's min: 29 files are ruled out by their stats, and
    // 23 row groups of the last by their leaf statistics.
    let (back, stats) = scan_all(
        &lake,
        request(
            &files,
            i64::MIN,
            i64::MAX,
            tag("service", "aardvark"),
            u64::MAX,
        ),
    )
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    println!(
        "service:aardvark over 30 days: {} bytes scanned of {total}, {} files opened, {} of {} row groups read",
        stats.bytes_scanned, stats.files_scanned, stats.row_groups_scanned, stats.row_groups
    );
    assert_eq!(
        stats.files_scanned, 1,
        "file stats keep only the day holding aardvark"
    );
    assert_eq!(
        stats.row_groups_scanned, 1,
        "leaf statistics keep only its hour"
    );
    // The row group holds the aardvark event and the rest of its hour; only the row whose tags
    // satisfy the constraints becomes an event.
    assert_eq!(back.len(), 1);
    assert_eq!(back[0].tags["service"], ["aardvark"]);
    assert!(stats.bytes_scanned * 50 <= total);

    // `bravo` lies between alpha and delta in every file's and row group's min/max, and is in
    // none: only the bloom filters rule the 720 row groups out. No data page is read: the bytes
    // are the footers and the bloom filters.
    let (back, stats) = scan_all(
        &lake,
        request(
            &files,
            i64::MIN,
            i64::MAX,
            tag("service", "bravo"),
            u64::MAX,
        ),
    )
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    println!(
        "service:bravo (bloom negative) over 30 days: {} bytes scanned of {total}, {} files opened, {} of {} row groups read",
        stats.bytes_scanned, stats.files_scanned, stats.row_groups_scanned, stats.row_groups
    );
    assert!(back.is_empty());
    assert_eq!((stats.files_scanned, stats.row_groups_scanned), (30, 0));
    let day_files: Vec<_> = files
        .iter()
        .filter(|f| f.partition_start_us == BASE_US + (RARE_HOUR / 24) * 24 * HOUR_US)
        .cloned()
        .collect();
    let (_, footer_only) = scan_all(
        &lake,
        request(
            &day_files,
            i64::MIN,
            i64::MAX,
            tag("service", "bravo"),
            u64::MAX,
        ),
    )
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (footer_only.files_scanned, footer_only.row_groups_scanned),
        (1, 0)
    );
    assert!(
        footer_only.bytes_scanned * 3 < day_files[0].bytes,
        "footer and bloom filters only: {} of {} bytes",
        footer_only.bytes_scanned,
        day_files[0].bytes
    );

    // A clause holds when any pair holds; clauses are a conjunction; unpromoted keys never prune.
    let or = vec![vec![
        ("service".to_owned(), "bravo".to_owned()),
        ("service".to_owned(), "aardvark".to_owned()),
    ]];
    let (_, s) = scan_all(&lake, request(&files, i64::MIN, i64::MAX, or, u64::MAX))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.row_groups_scanned, 1);
    let and = vec![
        vec![("service".to_owned(), "aardvark".to_owned())],
        vec![("level".to_owned(), "nope".to_owned())],
    ];
    let (_, s) = scan_all(&lake, request(&files, i64::MIN, i64::MAX, and, u64::MAX))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.row_groups_scanned, 0);
    let (back, s) = scan_all(
        &lake,
        request(&files, i64::MIN, i64::MAX, tag("region", "eu"), u64::MAX),
    )
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.row_groups_scanned, s.row_groups);
    assert!(back.is_empty(), "no row has a region tag");
}

#[tokio::test]
async fn rows_whose_tags_fail_the_constraints_are_not_decoded() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let lake = Lake::local(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let events = hourly(6, 240, 3);
    let files = write_all(
        &lake,
        spec(Partitioning::Hour),
        "load",
        &events,
        WriteOptions::default(),
    )
    .await;
    let pair = |k: &str, v: &str| (k.to_owned(), v.to_owned());
    let holds = |e: &jobgraph_model::LogEvent, clause: &[(String, String)]| {
        clause
            .iter()
            .any(|(k, v)| e.tags.get(k).is_some_and(|values| values.contains(v)))
    };
    for constraints in [
        vec![vec![pair("level", "warn"), pair("level", "error")]],
        vec![vec![pair("service", "beta")], vec![pair("host", "host-4")]],
        vec![vec![pair("service", "delta"), pair("host", "host-1")]],
        vec![vec![pair("host", "host-15")], vec![pair("level", "info")]],
        vec![
            vec![pair("service", "aardvark")],
            vec![pair("level", "error")],
        ],
    ] {
        let expected: Vec<String> = events
            .iter()
            .filter(|e| constraints.iter().all(|c| holds(e, c)))
            .filter_map(|e| e.id.as_ref().map(|id| id.to_string()))
            .collect();
        let (back, _) = scan_all(
            &lake,
            request(&files, i64::MIN, i64::MAX, constraints.clone(), u64::MAX),
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
        let got: Vec<String> = back
            .iter()
            .filter_map(|e| e.id.as_ref().map(|id| id.to_string()))
            .collect();
        assert!(!expected.is_empty() || constraints[0][0].1 == "aardvark");
        assert_eq!(got, expected, "{constraints:?}");
    }
}

#[tokio::test]
async fn a_tiny_budget_stops_the_scan_before_the_fetch() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let lake = Lake::local(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let events = hourly(48, 100, 0);
    let files = write_all(
        &lake,
        spec(Partitioning::Hour),
        "load",
        &events,
        WriteOptions::default(),
    )
    .await;
    let mut scanner = lake
        .scan(request(&files, i64::MIN, i64::MAX, vec![], 2000))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let mut read = 0;
    let outcome = loop {
        match scanner.next_batch().await {
            Ok(Some(batch)) => read += batch.len(),
            Ok(None) => break None,
            Err(e) => break Some(e),
        }
    };
    match outcome {
        Some(LakeError::ScanBudget { scanned, budget }) => {
            assert_eq!(budget, 2000);
            assert!(scanned <= 2000, "{scanned}");
            assert_eq!(scanner.stats().bytes_scanned, scanned);
            println!("budget 2000: stopped at {scanned} bytes after {read} events");
        }
        other => panic!("expected ScanBudget, got {other:?} after {read} events"),
    }
    // The whole scan fits a budget of the files' total size (every fetch counted, none twice).
    let total: u64 = files.iter().map(|f| f.bytes).sum();
    let (back, stats) = scan_all(&lake, request(&files, i64::MIN, i64::MAX, vec![], total))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.len(), events.len());
    assert!(stats.bytes_scanned <= total);
}
