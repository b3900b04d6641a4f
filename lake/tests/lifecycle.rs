//! Abort, garbage collection, ids unfit for paths, lake URLs.

mod common;

use std::collections::HashSet;
use std::time::Duration;

use common::{files_under, hourly, request, scan_all, spec, write_all};
use jobgraph_lake::{Lake, LakeError, Partitioning, S3Options, ScanOrder, TableSpec, WriteOptions};

#[tokio::test]
async fn abort_deletes_every_file_written() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let lake = Lake::local(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let options = WriteOptions {
        max_file_bytes: 4096,
        max_open_partitions: 2,
        ..WriteOptions::default()
    };
    let mut writer = lake.writer(spec(Partitioning::Hour), "run-1", options);
    writer
        .write(&hourly(6, 100, 0))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let written = files_under(dir.path());
    assert!(
        written.len() > 3,
        "files are written while writing: {written:?}"
    );
    writer.abort().await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(files_under(dir.path()), Vec::<std::path::PathBuf>::new());
}

#[tokio::test]
async fn limits_cut_files_and_partitions() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let lake = Lake::local(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let options = WriteOptions {
        row_group_rows: 10,
        max_file_bytes: 8192,
        max_open_partitions: 1,
        ..WriteOptions::default()
    };
    let events = hourly(3, 200, 0);
    let files = write_all(&lake, spec(Partitioning::Hour), "run", &events, options).await;
    assert!(files.len() > 3, "{} files", files.len());
    assert!(files.iter().all(|f| f.row_groups as u64 >= f.rows / 10));
    let paths: HashSet<_> = files.iter().map(|f| f.path.clone()).collect();
    assert_eq!(paths.len(), files.len());
    assert_eq!(
        files.iter().map(|f| f.rows).sum::<u64>(),
        events.len() as u64
    );
    let (back, _) = scan_all(&lake, request(&files, i64::MIN, i64::MAX, vec![], u64::MAX))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.len(), events.len());
}

#[tokio::test]
async fn the_buffered_total_is_bounded_whatever_order_events_come_in() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let lake = Lake::local(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let options = WriteOptions {
        max_buffered_bytes: 40_000,
        ..WriteOptions::default()
    };
    // Round robin over 6 hours: every event opens or grows another partition's buffer.
    let hours = hourly(6, 200, 0);
    let mut scattered = Vec::new();
    for i in 0..200 {
        for h in 0..6 {
            scattered.push(hours[h * 200 + i].clone());
        }
    }
    let mut writer = lake.writer(spec(Partitioning::Hour), "run", options);
    writer
        .write(&scattered)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        !files_under(dir.path()).is_empty(),
        "past 40 000 bytes buffered, the largest buffer is written out before finish"
    );
    let files = writer.finish().await.unwrap_or_else(|e| panic!("{e}"));
    assert!(files.len() > 6, "{} files for 6 partitions", files.len());
    assert_eq!(files.iter().map(|f| f.rows).sum::<u64>(), 1200);
    // The partitions' several overlapping files merge back into time order.
    let mut oldest_first = request(&files, i64::MIN, i64::MAX, vec![], u64::MAX);
    oldest_first.order = ScanOrder::Ascending;
    let (back, _) = scan_all(&lake, oldest_first)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let id = |e: &jobgraph_model::LogEvent| e.id.clone();
    assert_eq!(
        back.iter().map(id).collect::<Vec<_>>(),
        hours.iter().map(id).collect::<Vec<_>>()
    );
}

#[tokio::test]
async fn garbage_collection_deletes_unreferenced_old_files_only() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let lake = Lake::local(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let committed = write_all(
        &lake,
        spec(Partitioning::Hour),
        "run-a",
        &hourly(3, 10, 0),
        WriteOptions::default(),
    )
    .await;
    let orphans = write_all(
        &lake,
        spec(Partitioning::Hour),
        "run-b",
        &hourly(2, 10, 0),
        WriteOptions::default(),
    )
    .await;
    let mut other = spec(Partitioning::Hour);
    other.dataset_id = "ds-2".into();
    let elsewhere = write_all(
        &lake,
        other,
        "run-c",
        &hourly(1, 10, 0),
        WriteOptions::default(),
    )
    .await;
    // A staging file a crash left behind (object_store's `name#N`, hidden from listings).
    let staging = dir
        .path()
        .join("org-1/ds-1/logs/event_hour=2026-11-01-00/run-z-1.parquet#3");
    std::fs::write(&staging, b"partial").unwrap_or_else(|e| panic!("{e}"));
    let keep: HashSet<String> = committed.iter().map(|f| f.path.clone()).collect();

    let young = lake
        .collect_garbage("org-1", "ds-1", &keep, Duration::from_secs(3600))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(young, 0, "files younger than the grace stay");
    let deleted = lake
        .collect_garbage("org-1", "ds-1", &keep, Duration::ZERO)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(deleted, orphans.len() + 1);
    assert!(!staging.exists());
    let left: HashSet<String> = files_under(dir.path())
        .iter()
        .filter_map(|p| p.strip_prefix(dir.path()).ok())
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let expected: HashSet<String> = committed
        .iter()
        .chain(&elsewhere)
        .map(|f| f.path.clone())
        .collect();
    assert_eq!(left, expected);
    let (back, _) = scan_all(
        &lake,
        request(&committed, i64::MIN, i64::MAX, vec![], u64::MAX),
    )
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.len(), 30);
}

#[tokio::test]
async fn hostile_ids_and_paths_are_refused() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let lake = Lake::local(&dir.path().join("lake")).unwrap_or_else(|e| panic!("{e}"));
    let events = hourly(1, 2, 0);
    let cases: Vec<(TableSpec, &str)> = vec![
        (
            TableSpec {
                organization: "../x".into(),
                ..spec(Partitioning::Hour)
            },
            "run",
        ),
        (
            TableSpec {
                organization: "..".into(),
                ..spec(Partitioning::Hour)
            },
            "run",
        ),
        (
            TableSpec {
                dataset_id: "a/b".into(),
                ..spec(Partitioning::Hour)
            },
            "run",
        ),
        (
            TableSpec {
                dataset_id: String::new(),
                ..spec(Partitioning::Hour)
            },
            "run",
        ),
        (
            TableSpec {
                table: "t\\u".into(),
                ..spec(Partitioning::Hour)
            },
            "run",
        ),
        (spec(Partitioning::Hour), "../../run"),
        (spec(Partitioning::Hour), "."),
    ];
    for (spec, run) in cases {
        let mut writer = lake.writer(spec.clone(), run, WriteOptions::default());
        match writer.write(&events).await {
            Err(e @ LakeError::InvalidId { .. }) => println!("refused: {e}"),
            other => panic!("{spec:?} {run}: {other:?}"),
        }
        assert!(matches!(
            writer.finish().await,
            Err(LakeError::InvalidId { .. })
        ));
    }
    for (org, ds) in [
        ("..", "ds"),
        ("org", "../.."),
        ("", "ds"),
        ("a/b", "c"),
        ("org", "x y"),
    ] {
        let outcome = lake
            .collect_garbage(org, ds, &HashSet::new(), Duration::ZERO)
            .await;
        assert!(
            matches!(outcome, Err(LakeError::InvalidId { .. })),
            "{org} {ds}: {outcome:?}"
        );
    }
    assert_eq!(files_under(dir.path()), Vec::<std::path::PathBuf>::new());
    // A manifest path that climbs out of the root is refused, not read.
    let mut files = write_all(
        &lake,
        spec(Partitioning::Hour),
        "run",
        &events,
        WriteOptions::default(),
    )
    .await;
    std::fs::write(dir.path().join("secret.parquet"), b"PAR1").unwrap_or_else(|e| panic!("{e}"));
    files[0].path = "../secret.parquet".into();
    let outcome = scan_all(&lake, request(&files, i64::MIN, i64::MAX, vec![], u64::MAX)).await;
    assert!(
        matches!(outcome, Err(LakeError::Store { .. })),
        "{outcome:?}"
    );
}

#[test]
fn urls_and_options() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let url = format!("file://{}", dir.path().join("l").display());
    let lake = Lake::open(&url, &S3Options::default()).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        lake.describe().starts_with("file:///"),
        "{}",
        lake.describe()
    );
    for bad in ["file://relative/path", "http://x/y", "s3://", "lake"] {
        assert!(
            matches!(
                Lake::open(bad, &S3Options::default()),
                Err(LakeError::BadUrl { .. })
            ),
            "{bad}"
        );
    }
    let options = S3Options {
        secret_access_key: Some("hunter2".into()),
        ..S3Options::default()
    };
    assert!(!format!("{options:?}").contains("hunter2"));
    #[cfg(not(feature = "s3"))]
    match Lake::open("s3://bucket/prefix", &S3Options::default()) {
        Err(e) => assert!(e.to_string().contains("feature `s3`"), "{e}"),
        Ok(_) => panic!("s3 without the feature"),
    }
}

/// Arbitrary strings for the property test below: xorshift64* over allowed characters, dots,
/// separators, escapes, white space, control characters and odd Unicode, 0 to 140 long.
struct Strings(u64);

impl Strings {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n
    }

    fn string(&mut self) -> String {
        const ALLOWED: &[u8] = b"azAZ09-_.:@=+~";
        const ODD: &[char] = &[
            '/', '\\', '%', ' ', '\n', '\0', '?', '#', '*', 'é', '中', '\u{202E}', '\u{FF0F}',
        ];
        let length = match self.below(8) {
            0 => 0,
            1 => 1 + self.below(2) as usize,
            2 => 127 + self.below(3) as usize,
            _ => 1 + self.below(12) as usize,
        };
        let odd_rate = [0, 3, 30][self.below(3) as usize];
        let dots_only = self.below(10) == 0;
        (0..length)
            .map(|_| {
                if dots_only {
                    '.'
                } else if self.below(100) < odd_rate {
                    ODD[self.below(ODD.len() as u64) as usize]
                } else {
                    char::from(ALLOWED[self.below(ALLOWED.len() as u64) as usize])
                }
            })
            .collect()
    }
}

/// Property: for arbitrary strings as each id (table, dataset id, organization, run id), the
/// writer either writes under `<root>/<organization>/<dataset>/<table>/` and nowhere else, or
/// refuses with `InvalidId` stating the rule and writes nothing; it never panics.
#[tokio::test]
async fn arbitrary_ids_write_inside_their_dataset_or_are_refused_with_the_rule() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let base = std::fs::canonicalize(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let root = base.join("root");
    let lake = Lake::local(&root).unwrap_or_else(|e| panic!("{e}"));
    let events = hourly(1, 3, 0);
    let mut strings = Strings(0x1a2e_5eed);
    let (mut accepted, mut refused) = (0, 0);
    for case in 0..400 {
        let value = strings.string();
        let mut spec = spec(Partitioning::Hour);
        let mut run = format!("run-{case}");
        match case % 4 {
            0 => spec.table = value.clone(),
            1 => spec.dataset_id = value.clone(),
            2 => spec.organization = value.clone(),
            _ => run = value.clone(),
        }
        let expected = jobgraph_model::names::check_path_name("id", &value);
        let before = files_under(&base);
        let mut writer = lake.writer(spec.clone(), &run, WriteOptions::default());
        let outcome = match writer.write(&events).await {
            Ok(()) => writer.finish().await,
            Err(e) => Err(e),
        };
        match (outcome, expected) {
            (Ok(files), Ok(())) => {
                accepted += 1;
                let folder = root
                    .join(&spec.organization)
                    .join(&spec.dataset_id)
                    .join(&spec.table);
                assert!(!files.is_empty());
                for file in &files {
                    let path = std::fs::canonicalize(root.join(&file.path))
                        .unwrap_or_else(|e| panic!("{value:?}: {}: {e}", file.path));
                    assert!(path.starts_with(&folder), "{value:?}: {}", path.display());
                    let name = path
                        .file_name()
                        .and_then(|n| n.to_str())
                        .unwrap_or_default();
                    assert!(name.starts_with(&format!("{run}-")), "{value:?}: {name}");
                }
                // Nothing else appeared (a name drawn twice rewrites its own earlier file).
                let written: Vec<_> = files.iter().map(|f| root.join(&f.path)).collect();
                for path in files_under(&base) {
                    assert!(
                        before.contains(&path) || written.contains(&path),
                        "{value:?} wrote {}",
                        path.display()
                    );
                }
            }
            (Err(e @ LakeError::InvalidId { .. }), Err(_)) => {
                refused += 1;
                let message = e.to_string();
                assert!(
                    message.contains(jobgraph_model::names::PATH_NAME_RULE),
                    "{message}"
                );
                assert_eq!(files_under(&base), before, "{value:?} wrote something");
            }
            (outcome, expected) => panic!("{value:?}: {outcome:?}, rule says {expected:?}"),
        }
    }
    assert!(
        accepted > 100 && refused > 100,
        "{accepted} accepted, {refused} refused"
    );
}
