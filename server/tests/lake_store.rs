//! The datasets and the lake manifest of both stores, called directly (no endpoint writes
//! files yet): a commit is one transaction and a retried run is a no-op, time-range selection
//! keeps the files overlapping `[start, end)` in partition order, tombstones free the name and
//! keep the manifest. SQLite always; PostgreSQL too when `JOBGRAPH_TEST_DATABASE_URL` is set.

use jobgraph_server::store::{
    DatasetFields, LakeFileRecord, PageRequest, SqliteStore, Store, StoreError, Synchronous,
};

const HOUR_US: i64 = 3_600_000_000;

fn fields(name: &str) -> DatasetFields {
    DatasetFields {
        name: name.into(),
        description: String::new(),
        partitioning: "HOUR".into(),
        retention_days: None,
        promoted_tags: vec!["service".into()],
        team_ids: Vec::new(),
    }
}

/// A file of hour `h` (from the epoch) holding minutes `from..to` of it.
fn file(run: &str, h: i64, from_min: i64, to_min: i64, table: &str) -> LakeFileRecord {
    let start = h * HOUR_US;
    LakeFileRecord {
        table: table.into(),
        path: format!("{table}/event_hour={h}/{run}-{from_min}.parquet"),
        partition_start_us: start,
        min_time_us: start + from_min * 60_000_000,
        max_time_us: start + to_min * 60_000_000 - 1,
        rows: 10,
        bytes: 1000,
        row_groups: 1,
        run_id: run.into(),
        stats: r#"{"service":{"min":"a","max":"z","nulls":0}}"#.into(),
    }
}

fn paths(files: &[LakeFileRecord]) -> Vec<String> {
    files.iter().map(|f| f.path.clone()).collect()
}

async fn exercise(store: &dyn Store, org: &str) {
    let org = org.to_owned();
    // Datasets: create, name taken, get by id and name, update with a version check.
    let a = store
        .create_dataset(org.clone(), format!("{org}-a"), fields("web"))
        .await
        .unwrap();
    assert_eq!(a.version, 1);
    assert!(matches!(
        store
            .create_dataset(org.clone(), format!("{org}-b"), fields("web"))
            .await,
        Err(StoreError::Duplicate(_))
    ));
    assert_eq!(
        store
            .dataset_by_name(org.clone(), "web".into())
            .await
            .unwrap()
            .id,
        a.id
    );
    assert!(matches!(
        store.dataset("other-org".into(), a.id.clone()).await,
        Err(StoreError::NotFound)
    ));
    let mut changed = fields("web");
    changed.retention_days = Some(30);
    let b = store
        .update_dataset(org.clone(), a.id.clone(), Some(1), changed.clone())
        .await
        .unwrap();
    assert_eq!((b.version, b.fields.retention_days), (2, Some(30)));
    assert!(matches!(
        store
            .update_dataset(org.clone(), a.id.clone(), Some(1), changed)
            .await,
        Err(StoreError::Conflict { current: 2 })
    ));

    // Commit: one transaction per run; the same run again is a no-op.
    let id = a.id.clone();
    let run1 = vec![
        file("run1", 10, 0, 60, "logs"),
        file("run1", 11, 0, 30, "logs"),
        file("run1", 12, 0, 60, "audit"),
    ];
    assert!(
        store
            .commit_lake_files(org.clone(), id.clone(), "run1".into(), run1)
            .await
            .unwrap()
    );
    let again = vec![file("run1", 13, 0, 60, "logs")];
    assert!(
        !store
            .commit_lake_files(org.clone(), id.clone(), "run1".into(), again)
            .await
            .unwrap()
    );
    assert!(
        store
            .commit_lake_files(
                org.clone(),
                id.clone(),
                "run2".into(),
                vec![file("run2", 11, 30, 60, "logs")]
            )
            .await
            .unwrap()
    );
    // A commit whose second file collides with a committed path fails whole: nothing of it
    // is visible, and its run can commit later.
    let colliding = vec![
        file("run3", 20, 0, 60, "logs"),
        file("run1", 10, 0, 60, "logs"),
    ];
    assert!(
        store
            .commit_lake_files(org.clone(), id.clone(), "run3".into(), colliding)
            .await
            .is_err()
    );
    let all = store
        .lake_files(org.clone(), id.clone(), None, None, None)
        .await
        .unwrap();
    assert_eq!(
        paths(&all),
        [
            "logs/event_hour=10/run1-0.parquet",
            "logs/event_hour=11/run1-0.parquet",
            "logs/event_hour=11/run2-30.parquet",
            "audit/event_hour=12/run1-0.parquet",
        ]
    );
    assert_eq!(all[0], file("run1", 10, 0, 60, "logs"));

    // Time range [11:20, 11:40) of `logs`: the two files of hour 11 overlap it.
    let start = 11 * HOUR_US + 20 * 60_000_000;
    let end = 11 * HOUR_US + 40 * 60_000_000;
    let some = store
        .lake_files(
            org.clone(),
            id.clone(),
            Some("logs".into()),
            Some(start),
            Some(end),
        )
        .await
        .unwrap();
    assert_eq!(
        paths(&some),
        [
            "logs/event_hour=11/run1-0.parquet",
            "logs/event_hour=11/run2-30.parquet"
        ]
    );
    // End is exclusive: [10:00, 11:00) holds hour 10 only; start is inclusive of a file's
    // last microsecond.
    let hour10 = store
        .lake_files(
            org.clone(),
            id.clone(),
            None,
            Some(10 * HOUR_US),
            Some(11 * HOUR_US),
        )
        .await
        .unwrap();
    assert_eq!(paths(&hour10), ["logs/event_hour=10/run1-0.parquet"]);
    let last_us = store
        .lake_files(
            org.clone(),
            id.clone(),
            None,
            Some(11 * HOUR_US - 1),
            Some(11 * HOUR_US),
        )
        .await
        .unwrap();
    assert_eq!(last_us.len(), 1);
    let audit = store
        .lake_files(org.clone(), id.clone(), Some("audit".into()), None, None)
        .await
        .unwrap();
    assert_eq!(audit.len(), 1);
    assert!(
        store
            .lake_files("other-org".into(), id.clone(), None, None, None)
            .await
            .unwrap()
            .is_empty()
    );

    // Delete: the name is free again; the deleted dataset's manifest stays.
    store.delete_dataset(org.clone(), id.clone()).await.unwrap();
    assert!(matches!(
        store.delete_dataset(org.clone(), id.clone()).await,
        Err(StoreError::NotFound)
    ));
    assert!(matches!(
        store.dataset(org.clone(), id.clone()).await,
        Err(StoreError::NotFound)
    ));
    let reborn = store
        .create_dataset(org.clone(), format!("{org}-c"), fields("web"))
        .await
        .unwrap();
    assert_ne!(reborn.id, id);
    assert_eq!(
        store
            .lake_files(org.clone(), id.clone(), None, None, None)
            .await
            .unwrap()
            .len(),
        4
    );

    // Listing: keyset pages of one.
    store
        .create_dataset(org.clone(), format!("{org}-d"), fields("api"))
        .await
        .unwrap();
    let mut after = None;
    let mut names = Vec::new();
    loop {
        let page = store
            .list_datasets(
                org.clone(),
                PageRequest {
                    after: after.clone(),
                    limit: 1,
                    max_bytes: 1 << 20,
                },
            )
            .await
            .unwrap();
        assert!(page.items.len() <= 1);
        after = page.items.last().map(|d| d.page_key());
        names.extend(page.items.into_iter().map(|d| d.fields.name));
        if !page.more {
            break;
        }
    }
    assert_eq!(names, ["web", "api"]);
    file_pages(store, &org).await;
}

/// Every page of a dataset's files, walked from key to key.
async fn walk(
    store: &dyn Store,
    org: &str,
    dataset: &str,
    limit: usize,
    max_bytes: usize,
) -> (Vec<String>, usize) {
    let mut after = None;
    let mut seen = Vec::new();
    let mut pages = 0;
    loop {
        let page = store
            .lake_file_page(
                org.into(),
                dataset.into(),
                PageRequest {
                    after: after.clone(),
                    limit,
                    max_bytes,
                },
            )
            .await
            .unwrap();
        pages += 1;
        assert!(!page.items.is_empty() || !page.more);
        assert!(page.items.len() <= limit);
        after = page.items.last().map(LakeFileRecord::page_key);
        seen.extend(paths(&page.items));
        if !page.more {
            return (seen, pages);
        }
        assert!(pages < 1000, "the pages do not end");
    }
}

/// The files of a dataset a page at a time: partition, time, then path in byte order (ties on
/// partition and time broken by the path, upper case before lower case as bytes sort, on
/// PostgreSQL too whatever its locale), every file once, the byte budget ending a page early,
/// and nothing of another dataset.
async fn file_pages(store: &dyn Store, org: &str) {
    let dataset = format!("{org}-pages");
    let other = format!("{org}-pages-other");
    let mut files = Vec::new();
    for h in [7, 3, 5] {
        for (i, name) in ["b", "B", "a", "A", "_z", "Z"].iter().enumerate() {
            let mut f = file(
                &format!("run-{h}"),
                h,
                0,
                60,
                if i % 2 == 0 { "logs" } else { "audit" },
            );
            // Two files of each hour share the smallest time: the path decides.
            f.min_time_us = h * HOUR_US + (i as i64 / 2) * 60_000_000;
            f.path = format!("p/{h}/{name}.parquet");
            files.push(f);
        }
    }
    let mut expected = files.clone();
    expected.sort_by(|a, b| {
        (a.partition_start_us, a.min_time_us, a.path.as_bytes()).cmp(&(
            b.partition_start_us,
            b.min_time_us,
            b.path.as_bytes(),
        ))
    });
    let expected = paths(&expected);
    assert!(
        store
            .commit_lake_files(
                org.into(),
                dataset.clone(),
                "run-a".into(),
                files[..9].to_vec()
            )
            .await
            .unwrap()
    );
    assert!(
        store
            .commit_lake_files(
                org.into(),
                dataset.clone(),
                "run-b".into(),
                files[9..].to_vec()
            )
            .await
            .unwrap()
    );
    assert!(
        store
            .commit_lake_files(
                org.into(),
                other.clone(),
                "run-a".into(),
                vec![file("x", 1, 0, 1, "logs")]
            )
            .await
            .unwrap()
    );
    for limit in [1, 4, 5, 18, 100] {
        let (seen, pages) = walk(store, org, &dataset, limit, 1 << 20).await;
        assert_eq!(seen, expected, "limit {limit}");
        assert_eq!(pages, 18usize.div_ceil(limit).max(1), "limit {limit}");
    }
    // A budget below two files' size: one file a page, whatever the limit.
    let (seen, pages) = walk(store, org, &dataset, 100, 150).await;
    assert_eq!(seen, expected);
    assert_eq!(pages, 18);
    let (seen, _) = walk(store, org, &other, 100, 1 << 20).await;
    assert_eq!(seen.len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_datasets_and_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(&dir.path().join("db.sqlite"), Synchronous::Normal, 2).unwrap();
    exercise(&store, "acme").await;
}

#[cfg(feature = "postgres")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_datasets_and_manifest() {
    use jobgraph_server::store::{PostgresOptions, PostgresStore};
    let Some(url) = std::env::var("JOBGRAPH_TEST_DATABASE_URL")
        .ok()
        .filter(|u| !u.is_empty())
    else {
        eprintln!("JOBGRAPH_TEST_DATABASE_URL is not set: PostgreSQL not tested");
        return;
    };
    let store = PostgresStore::connect(&PostgresOptions::new(url.clone()))
        .await
        .unwrap();
    // An organization of its own, so that runs against a database kept from before differ.
    let org = format!(
        "lake-{}",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    );
    exercise(&store, &org).await;
    file_pages_under_a_locale(&url, &org).await;
}

/// The files' pages in byte order on a database whose text sorts by a language's rules (ICU
/// `en-US`: `a` < `B`), as production databases often do: a database of its own on the same
/// server, dropped afterwards. Skipped, saying so, when the server cannot create one (no ICU,
/// PostgreSQL before 15, or no right to create databases).
#[cfg(feature = "postgres")]
async fn file_pages_under_a_locale(url: &str, org: &str) {
    use jobgraph_server::store::{PostgresOptions, PostgresStore};
    let (admin, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .unwrap();
    let connection = tokio::spawn(connection);
    let name = format!("lake_icu_{}", org.replace('-', "_"));
    let created = admin
        .batch_execute(&format!(
            "CREATE DATABASE {name} LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C' TEMPLATE template0"
        ))
        .await;
    if let Err(e) = created {
        eprintln!("no database with an ICU locale ({e}): byte order under a locale not tested");
        return;
    }
    // The database named in `url`, replaced by the new one.
    let (base, query) = url.split_once('?').unwrap_or((url, ""));
    let server = base.rsplit_once('/').map_or(base, |(server, _)| server);
    let icu_url = if query.is_empty() {
        format!("{server}/{name}")
    } else {
        format!("{server}/{name}?{query}")
    };
    {
        let store = PostgresStore::connect(&PostgresOptions::new(icu_url.clone()))
            .await
            .unwrap();
        let (client, conn) = tokio_postgres::connect(&icu_url, tokio_postgres::NoTls)
            .await
            .unwrap();
        let conn = tokio::spawn(conn);
        let row = client.query_one("SELECT 'a' < 'B'", &[]).await.unwrap();
        assert!(row.get::<_, bool>(0), "the database sorts text as bytes");
        drop(client);
        let _ = conn.await;
        file_pages(&store, org).await;
    }
    admin
        .batch_execute(&format!("DROP DATABASE {name} WITH (FORCE)"))
        .await
        .unwrap();
    drop(admin);
    let _ = connection.await;
}
