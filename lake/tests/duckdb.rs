//! DuckDB (target/lake-venv, scripts/setup.sh) reads the lake's files as plain Parquet and sees
//! what the scanner sees: rows, tag counts (through the promoted column and the tags map), ids.

mod common;
#[path = "common/venv.rs"]
mod venv;

use std::process::Command;

use common::{event, hourly, request, scan_all, spec, write_all};
use jobgraph_lake::{Lake, Partitioning, WriteOptions};
use serde_json::{Value, json};

const SCRIPT: &str = r#"
import duckdb, json, sys
paths = json.loads(sys.argv[1])
con = duckdb.connect()
files = "read_parquet(" + json.dumps(paths).replace('"', "'") + ")"
one = lambda q: con.execute(q).fetchone()[0]
print(json.dumps({
    "rows": one(f"select count(*) from {files}"),
    "alpha_column": one(f"select count(*) from {files} where list_contains(tag_service, 'alpha')"),
    "alpha_map": one(f"select count(*) from {files} where list_contains(tags['service'], 'alpha')"),
    "ids": [r[0] for r in con.execute(f"select id from {files} order by id").fetchall()],
    "types": {r[0]: r[1] for r in con.execute(f"describe select event_time, tags, tag_service from {files}").fetchall()},
}))
"#;

#[tokio::test]
async fn duckdb_reads_what_the_scanner_reads() {
    let Some(python) = venv::tool("duckdb::duckdb_reads_what_the_scanner_reads", "python") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let lake = Lake::local(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let mut events = hourly(30, 40, 5);
    events.push(event(
        json!({"id": "untagged", "eventTimestamp": "2026-11-01T03:00:00Z"}),
    ));
    events.push(event(json!({"id": "two-services", "eventTimestamp": "2026-11-01T04:00:00Z", "tags": {"service": ["alpha", "beta"]}})));
    let files = write_all(
        &lake,
        spec(Partitioning::Day),
        "run",
        &events,
        WriteOptions {
            row_group_rows: 100,
            ..WriteOptions::default()
        },
    )
    .await;
    let (back, _) = scan_all(&lake, request(&files, i64::MIN, i64::MAX, vec![], u64::MAX))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let paths: Vec<String> = files
        .iter()
        .map(|f| dir.path().join(&f.path).display().to_string())
        .collect();
    let output = Command::new(&python)
        .args([
            "-c",
            SCRIPT,
            &serde_json::to_string(&paths).unwrap_or_default(),
        ])
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", python.display()));
    assert!(
        output.status.success(),
        "duckdb: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let seen: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("{e}"));
    println!(
        "duckdb: rows {}, alpha {} (column) {} (map), {} ids",
        seen["rows"],
        seen["alpha_column"],
        seen["alpha_map"],
        seen["ids"].as_array().map_or(0, Vec::len)
    );

    let alpha = back
        .iter()
        .filter(|e| {
            e.tags
                .get("service")
                .is_some_and(|v| v.iter().any(|s| s == "alpha"))
        })
        .count();
    let mut ids: Vec<String> = back.iter().map(|e| e.label(0)).collect();
    ids.sort();
    assert_eq!(seen["rows"], json!(back.len()));
    assert_eq!(seen["alpha_column"], json!(alpha));
    assert_eq!(seen["alpha_map"], json!(alpha));
    assert_eq!(seen["ids"], json!(ids));
    assert_eq!(seen["types"]["event_time"], "TIMESTAMP WITH TIME ZONE");
    assert_eq!(seen["types"]["tags"], "MAP(VARCHAR, VARCHAR[])");
    assert_eq!(seen["types"]["tag_service"], "VARCHAR[]");
}
