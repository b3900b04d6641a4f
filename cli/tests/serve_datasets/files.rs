//! `GET /v1/datasets/{id}/files` and `dataset:files` over files committed through the
//! service's own store (the server's database, opened beside it as the sink will write it):
//! SQLite in the server's data folder, or its PostgreSQL database.

use jobgraph_server::store::{LakeFileRecord, Store};
use serde_json::json;

use super::{call, common, create, server};

const HOUR_US: i64 = 3_600_000_000;

/// The server's store, opened beside it.
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
        jobgraph_server::store::SqliteStore::open(
            &path,
            jobgraph_server::store::Synchronous::Normal,
            1,
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
