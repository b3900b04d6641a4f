//! A data directory made by an earlier release still serves what it holds: the store is opened
//! on a copy of `tests/fixtures/data-2026-11-27` (made by `jobgraph serve` of 2026-11-27 with
//! one client, a template with two versions, a job, a dataset and one loaded file, then stopped
//! by SIGTERM: its SQLite file and write-ahead log as that release left them) and every record
//! is read through the real router, in process. A change of the SQL layer or of the SQLite
//! driver must keep this passing (issue 37).
//!
//! The fixture was made with:
//! ```sh
//! jobgraph serve --data DIR --client fx:fx-secret-123:acme
//! # POST /v1/templates "Levels", PUT it once (version 2), POST /v1/jobs "errors to vendor"
//! # (one template operation), POST /v1/datasets "web-logs" (retentionDays 30),
//! # POST /v1/datasets/{id}/load?table=logs with two events
//! ```

use std::path::Path;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use jobgraph_core::InProcess;
use jobgraph_server::{AppState, ServiceConfig, SqliteStore, Synchronous, router};
use serde_json::{Value, json};
use tower::ServiceExt;

const TEMPLATE: &str = "waJ5sFjd9rtZ0ZPK";
const JOB: &str = "HEt8tTwtoP_Xt2XA";
const DATASET: &str = "BZ-UV_2CdE6YmA3D";

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder");
    for entry in std::fs::read_dir(from).expect("the fixture") {
        let entry = entry.expect("an entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("a type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("a copy");
        }
    }
}

async fn call(
    router: &axum::Router,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut request = Request::builder().method(method).uri(path);
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    let request = match body {
        Some(body) => request
            .header("content-type", "application/json")
            .body(Body::from(body.to_string())),
        None => request.body(Body::empty()),
    }
    .expect("a request");
    let response = router
        .clone()
        .oneshot(request)
        .await
        .expect("the router never fails");
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .expect("a body");
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_data_directory_of_the_2026_11_27_release_serves_its_records() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/data-2026-11-27");
    let dir = tempfile::tempdir().expect("a temporary directory");
    copy_dir(&fixture, dir.path());
    let store = SqliteStore::open(&dir.path().join("jobgraph.db"), Synchronous::Normal, 2)
        .expect("the old data directory opens");
    let state = AppState::new(
        Arc::new(store),
        Arc::new(InProcess),
        ServiceConfig::default(),
    );
    let router = router(state);

    // The client stored by that release still gets a token with its secret.
    let (status, answer) = call(
        &router,
        "POST",
        "/oauth/token",
        None,
        Some(json!({"client_id": "fx", "client_secret": "fx-secret-123", "grant_type": "client_credentials"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let token = answer["access_token"].as_str().expect("a token").to_owned();
    let token = Some(token.as_str());

    let (status, template) = call(
        &router,
        "GET",
        &format!("/v1/templates/{TEMPLATE}?latest=true"),
        token,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{template}");
    let latest = &template["items"][0];
    assert_eq!(latest["name"], "Levels", "{template}");
    assert_eq!(latest["version"], 2);
    assert_eq!(latest["description"], "keeps one level, version 2");
    assert_eq!(latest["organizationId"], "acme");
    assert_eq!(latest["createdAt"], "2026-11-27T05:35:29.077Z");
    let (status, versions) = call(
        &router,
        "GET",
        &format!("/v1/templates/{TEMPLATE}"),
        token,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{versions}");
    let descriptions: Vec<&str> = versions["items"]
        .as_array()
        .expect("all versions")
        .iter()
        .map(|v| v["description"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(descriptions.len(), 2, "{versions}");
    assert!(descriptions.contains(&"keeps one level"), "{versions}");

    let (status, job) = call(&router, "GET", &format!("/v1/jobs/{JOB}"), token, None).await;
    assert_eq!(status, StatusCode::OK, "{job}");
    assert_eq!(job["name"], "errors to vendor");
    assert_eq!(job["execution"], "ASYNCHRONOUS");
    assert_eq!(job["jobGraph"]["vertices"][0]["templateId"], TEMPLATE);
    assert_eq!(
        job["jobGraph"]["vertices"][0]["templateInputs"]["level"],
        "warn"
    );
    let (status, jobs) = call(&router, "GET", "/v1/jobs", token, None).await;
    assert_eq!(status, StatusCode::OK, "{jobs}");
    assert_eq!(jobs["items"].as_array().map(Vec::len), Some(1), "{jobs}");

    let (status, datasets) = call(&router, "GET", "/v1/datasets", token, None).await;
    assert_eq!(status, StatusCode::OK, "{datasets}");
    assert_eq!(datasets[0]["id"], DATASET, "{datasets}");
    assert_eq!(datasets[0]["name"], "web-logs");
    assert_eq!(datasets[0]["retentionDays"], 30);
    let (status, files) = call(
        &router,
        "GET",
        &format!("/v1/datasets/{DATASET}/files"),
        token,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{files}");
    let file = &files["items"][0];
    assert_eq!(file["table"], "logs", "{files}");
    assert_eq!(file["rows"], 2);
    assert_eq!(file["minTime"], "2026-11-18T11:06:40.000000Z");
    let path = file["path"].as_str().expect("a path");
    assert!(
        dir.path().join("lake").join(path).is_file(),
        "the manifest names the file the release wrote: {path}"
    );

    // And it takes new records beside the old ones.
    let (status, created) = call(
        &router,
        "POST",
        "/v1/datasets",
        token,
        Some(json!({"name": "after-the-upgrade"})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
}

/// The tables, indexes and schema version of a SQLite database.
fn sqlite_schema(path: &Path) -> (i64, Vec<(String, String, String)>) {
    let db = rusqlite::Connection::open(path).expect("the database");
    let version = db
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .expect("its version");
    let mut statement = db
        .prepare("SELECT type, name, COALESCE(sql, '') FROM sqlite_master ORDER BY type, name")
        .expect("a query");
    let objects = statement
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))
        .expect("the rows")
        .collect::<Result<Vec<_>, _>>()
        .expect("the schema");
    (version, objects)
}

/// The migrations as this build runs them make exactly the schema the 2026-11-27 release made,
/// and a released database brought up to date has exactly a fresh database's schema: moving
/// the migrations to one list for both databases changed no statement, and a later migration
/// does the same to an old database as to a new one.
#[test]
fn a_fresh_database_has_the_released_schema_brought_up_to_date() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let released = dir.path().join("released");
    copy_dir(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/data-2026-11-27")
            .as_path(),
        &released,
    );
    let (released_version, released_objects) = sqlite_schema(&released.join("jobgraph.db"));
    assert_eq!(released_version, 5);
    assert!(
        released_objects
            .iter()
            .any(|(_, name, _)| name == "lake_files_listing")
    );
    drop(
        SqliteStore::open(&released.join("jobgraph.db"), Synchronous::Normal, 1)
            .expect("the released store, upgraded"),
    );
    let fresh = dir.path().join("fresh.db");
    drop(SqliteStore::open(&fresh, Synchronous::Normal, 1).expect("a fresh store"));
    let (upgraded_version, upgraded_objects) = sqlite_schema(&released.join("jobgraph.db"));
    let (fresh_version, fresh_objects) = sqlite_schema(&fresh);
    assert_eq!(fresh_version, 9);
    assert_eq!(upgraded_version, fresh_version);
    // The released tables and indexes are all still there (columns were only added).
    for (kind, name, _) in &released_objects {
        assert!(
            upgraded_objects
                .iter()
                .any(|(k, n, _)| k == kind && n == name),
            "{kind} {name}"
        );
    }
    assert_eq!(upgraded_objects, fresh_objects);
}
