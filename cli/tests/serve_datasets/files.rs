//! `GET /v1/datasets/{id}/files` and `dataset:files` over files committed through the
//! service's own store (the server's database, opened beside it as the sink will write it):
//! SQLite in the server's data folder, or its PostgreSQL database.

use jobgraph_server::store::{LakeFileRecord, Store};
use serde_json::json;

use super::{call, common, create, server};

const HOUR_US: i64 = 3_600_000_000;

/// The server's store, opened beside it (the server's `sqliteAccess` is "shared").
async fn store() -> Box<dyn Store> {
    let data = &server().data;
    #[cfg(feature = "postgres")]
    if let [_, url] = common::postgres_args(data).as_slice() {
        let options = jobgraph_server::store::PostgresOptions::new(url.clone());
        return Box::new(
            jobgraph_server::store::PostgresStore::connect(&options)
                .await
                .unwrap(),
        );
    }
    let path = data.join("db").join("jobgraph.db");
    Box::new(
        jobgraph_server::store::SqliteStore::open_with(
            &path,
            jobgraph_server::store::Synchronous::Normal,
            1,
            jobgraph_server::store::Access::Shared,
        )
        .unwrap(),
    )
}

fn file(path: &str, hour: i64, rows: i64) -> LakeFileRecord {
    LakeFileRecord {
        table: "logs".into(),
        path: path.into(),
        partition_start_us: hour * HOUR_US,
        min_time_us: hour * HOUR_US + 1_500_000,
        max_time_us: hour * HOUR_US + 2_000_123,
        rows,
        bytes: rows * 100,
        row_groups: 1,
        run_id: "run-1".into(),
        stats: "{}".into(),
    }
}

#[test]
fn committed_files_are_listed_and_outlive_the_dataset() {
    let dataset = create("isolated", json!({"name": "with-files"}));
    let id = dataset["id"].as_str().unwrap().to_owned();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let store = runtime.block_on(store());
    let files = vec![
        file("/lake/b.parquet", 480_000, 7),
        file("/lake/a.parquet", 479_999, 5),
    ];
    let committed = runtime
        .block_on(store.commit_lake_files("org-isolated".into(), id.clone(), "run-1".into(), files))
        .unwrap();
    assert!(committed);

    let r = call("GET", &format!("/v1/datasets/{id}/files"), "isolated", None);
    assert_eq!(r.status, 200, "{}", r.body);
    let listed = r.json();
    assert_eq!(
        listed["items"][0],
        json!({"table": "logs", "path": "/lake/a.parquet",
               "partitionStart": "2024-10-03T23:00:00.000000Z",
               "minTime": "2024-10-03T23:00:01.500000Z",
               "maxTime": "2024-10-03T23:00:02.000123Z",
               "rows": 5, "bytes": 500, "rowGroups": 1, "runId": "run-1"})
    );
    assert_eq!(listed["items"][1]["path"], "/lake/b.parquet");
    assert_eq!(listed["items"].as_array().unwrap().len(), 2);
    // Another organization: 404.
    let r = call("GET", &format!("/v1/datasets/{id}/files"), "crud", None);
    assert_eq!(r.status, 404, "{}", r.body);

    // Deleted: the endpoint is gone with the metadata; the manifest rows stay.
    assert_eq!(
        call("DELETE", &format!("/v1/datasets/{id}"), "isolated", None).status,
        204
    );
    let r = call("GET", &format!("/v1/datasets/{id}/files"), "isolated", None);
    assert_eq!(r.status, 404, "{}", r.body);
    let kept = runtime
        .block_on(store.lake_files("org-isolated".into(), id, None, None, None))
        .unwrap();
    assert_eq!(kept.len(), 2);
}

/// The `nextCursor` of a first page of `path` (which must have more than one page).
/// The cursor of the second page: `nextCursor`, or for the dataset list (a bare array) the
/// `cursor` of its `Link` header.
fn first_cursor(path: &str) -> String {
    let r = call("GET", path, "cli", None);
    assert_eq!(r.status, 200, "{}", r.body);
    if let Some(cursor) = r.json()["nextCursor"].as_str() {
        return cursor.to_owned();
    }
    let link = r
        .header("link")
        .unwrap_or_else(|| panic!("{path} has one page: {}", r.body));
    let target = &link[1..link.find('>').unwrap()];
    let (_, cursor) = target
        .split_once("cursor=")
        .unwrap_or_else(|| panic!("no cursor in {link}"));
    cursor.split('&').next().unwrap().to_owned()
}

#[test]
fn the_files_come_in_pages_that_hold_every_file_once_in_order() {
    let id = create("cli", json!({"name": "cli-paged-files"}))["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let other = create("cli", json!({"name": "cli-paged-other"}))["id"]
        .as_str()
        .unwrap()
        .to_owned();
    // 250 files over 10 hours, three smallest times an hour (so that many files tie on
    // partition and time and the path decides), listed in an order unlike the commits'.
    let files: Vec<LakeFileRecord> = (0..250i64)
        .map(|i| {
            let hour = 480_000 + (i * 7) % 10;
            let mut f = file(&format!("/lake/h{hour}/{:03}.parquet", 249 - i), hour, 1);
            f.min_time_us += i % 3;
            f.run_id = format!("run-{}", i / 100);
            f
        })
        .collect();
    let mut expected = files.clone();
    expected.sort_by(|a, b| {
        (a.partition_start_us, a.min_time_us, a.path.as_bytes()).cmp(&(
            b.partition_start_us,
            b.min_time_us,
            b.path.as_bytes(),
        ))
    });
    let expected: Vec<String> = expected.into_iter().map(|f| f.path).collect();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let store = runtime.block_on(store());
    for (n, chunk) in files.chunks(100).enumerate() {
        let committed = runtime.block_on(store.commit_lake_files(
            "org-cli".into(),
            id.clone(),
            format!("run-{n}"),
            chunk.to_vec(),
        ));
        assert!(committed.unwrap());
    }
    let two = vec![
        file("/lake/o/1.parquet", 1, 1),
        file("/lake/o/2.parquet", 2, 1),
    ];
    assert!(
        runtime
            .block_on(store.commit_lake_files("org-cli".into(), other.clone(), "run-o".into(), two))
            .unwrap()
    );

    // Pages of 100 (the default, and `limit=100`): 100, 100, 50, walked by `nextCursor` and
    // by the `Link` header, which carry the same cursor.
    for first in [
        format!("/v1/datasets/{id}/files?limit=100"),
        format!("/v1/datasets/{id}/files"),
    ] {
        let mut path = first.clone();
        let mut seen: Vec<String> = Vec::new();
        let mut sizes = Vec::new();
        loop {
            let r = call("GET", &path, "cli", None);
            assert_eq!(r.status, 200, "{path}: {}", r.body);
            let page = r.json();
            let items = page["items"].as_array().unwrap();
            sizes.push(items.len());
            seen.extend(items.iter().map(|f| f["path"].as_str().unwrap().to_owned()));
            match page["nextCursor"].as_str() {
                Some(cursor) => {
                    let link = r.header("link").expect("a Link header with nextCursor");
                    let target = link
                        .strip_prefix('<')
                        .and_then(|l| l.strip_suffix(">; rel=\"next\""))
                        .unwrap_or_else(|| panic!("{link}"));
                    assert!(
                        target.ends_with(&format!("&cursor={cursor}"))
                            || target.ends_with(&format!("?cursor={cursor}")),
                        "{link}"
                    );
                    assert!(
                        target.starts_with(&format!("/v1/datasets/{id}/files?")),
                        "{link}"
                    );
                    assert_eq!(
                        target.contains("limit=100"),
                        first.contains("limit=100"),
                        "{link}"
                    );
                    path = target.to_owned();
                }
                None => {
                    assert!(r.header("link").is_none());
                    break;
                }
            }
        }
        assert_eq!(sizes, [100, 100, 50], "{first}");
        assert_eq!(seen, expected, "{first}");
    }
    // One page of 1000 holds them all, without a cursor.
    let r = call(
        "GET",
        &format!("/v1/datasets/{id}/files?limit=1000"),
        "cli",
        None,
    );
    let page = r.json();
    assert_eq!(page["items"].as_array().unwrap().len(), 250);
    assert!(page.get("nextCursor").is_none(), "{}", r.body);

    // A cursor of another dataset's files, of the dataset list, or altered: 400 naming it;
    // a files cursor is no cursor of the dataset list either.
    let foreign = first_cursor(&format!("/v1/datasets/{other}/files?limit=1"));
    let listing = first_cursor("/v1/datasets?limit=1");
    let own = first_cursor(&format!("/v1/datasets/{id}/files?limit=3"));
    // One character in the middle changed (to another one).
    let middle = own.len() / 2;
    let swap = if &own[middle..=middle] == "A" {
        "B"
    } else {
        "A"
    };
    let altered = format!("{}{swap}{}", &own[..middle], &own[middle + 1..]);
    assert_ne!(altered, own);
    for cursor in [&foreign, &listing, &altered] {
        let r = call(
            "GET",
            &format!("/v1/datasets/{id}/files?cursor={cursor}"),
            "cli",
            None,
        );
        assert_eq!(r.status, 400, "{}", r.body);
        assert!(r.body.contains("cursor"), "{}", r.body);
    }
    let r = call("GET", &format!("/v1/datasets?cursor={own}"), "cli", None);
    assert_eq!(r.status, 400, "{}", r.body);
    // `limit` as on the other lists: a positive integer, at most 1000.
    for limit in ["0", "1001", "-1", "ten"] {
        let r = call(
            "GET",
            &format!("/v1/datasets/{id}/files?limit={limit}"),
            "cli",
            None,
        );
        assert_eq!(r.status, 400, "limit={limit}: {}", r.body);
        assert!(r.body.contains("limit"), "{}", r.body);
    }
    // Another organization: the cursor is of another listing (400, checked first as on
    // every listing), and without it the dataset is not there (404).
    let r = call(
        "GET",
        &format!("/v1/datasets/{id}/files?cursor={own}"),
        "isolated",
        None,
    );
    assert_eq!(r.status, 400, "{}", r.body);
    let r = call(
        "GET",
        &format!("/v1/datasets/{id}/files?limit=5"),
        "isolated",
        None,
    );
    assert_eq!(r.status, 404, "{}", r.body);

    // `dataset:files` follows the cursors: every file, in order; `--limit N` the first N.
    let home = super::cli::home();
    let h = home.path();
    let raw = super::cli::run(h, &["dataset:files", &id, "-f", "raw"]);
    let listed: Vec<String> = raw
        .ok()
        .stdout
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["path"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(listed, expected);
    let csv = super::cli::run(h, &["dataset:files", &id, "-f", "csv", "-c", "path"]);
    assert_eq!(csv.ok().stdout.lines().count(), 251);
    let first = super::cli::run(h, &["dataset:files", &id, "--limit", "7", "-f", "compact"]);
    let first: Vec<String> = first
        .ok()
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(first, expected[..7]);
    // `--limit 0` is a usage error (exit 2), as for `dataset:list`.
    let zero = super::cli::run(h, &["dataset:files", &id, "--limit", "0"]);
    assert_eq!(zero.code, Some(2), "{}", zero.stderr);
    assert!(zero.stderr.contains("--limit"), "{}", zero.stderr);
    assert!(zero.stdout.is_empty(), "{}", zero.stdout);
}
