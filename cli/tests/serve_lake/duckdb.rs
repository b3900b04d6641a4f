//! Another tool reads the same data: DuckDB (PyPI `duckdb`, in `target/lake-venv`, made by
//! scripts/setup.sh) reads the files the manifest lists and finds the events and counts the
//! service returns.

use std::path::PathBuf;
use std::process::Command;

use serde_json::{Value, json};

use crate::{
    alice_on, create_dataset, data_of, events, files, ids_of, load, ndjson, query_job, run_sync,
    server,
};

fn venv_python() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let python = root.join("target/lake-venv/bin/python");
    if python.exists() {
        return Some(python);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "target/lake-venv is missing on CI: scripts/setup.sh makes it"
    );
    eprintln!("SKIPPED: no target/lake-venv (run scripts/setup.sh): DuckDB is not checked");
    None
}

#[test]
fn duckdb_reads_the_same_events_and_counts_from_the_files() {
    let Some(python) = venv_python() else { return };
    let server = server();
    let token = alice_on(server);
    let dataset = create_dataset(server, &token, "duck", json!({}));
    let all = events(3000, "2026-11-18T00:00:00Z", 30);
    load(server, &token, &dataset, &ndjson(&all));
    let root = server.data.join("db").join("lake");
    let paths: Vec<String> = files(server, &token, &dataset)
        .iter()
        .map(|f| {
            root.join(f["path"].as_str().unwrap())
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let (start, end) = ("2026-11-18T05:00:00Z", "2026-11-19T02:00:00Z");
    let query = "(level:warn OR level:error) AND service:checkout";
    let service = ids_of(&data_of(&run_sync(
        server,
        &token,
        &query_job(&dataset, start, end, query, 1_000_000),
    )));
    let script = r#"
import duckdb, json, sys
paths, start, end = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]
con = duckdb.connect()
total = con.execute("SELECT count(*) FROM read_parquet(?)", [paths]).fetchone()[0]
rows = con.execute("""
  SELECT id FROM read_parquet(?)
  WHERE event_time >= CAST(? AS TIMESTAMPTZ) AND event_time < CAST(? AS TIMESTAMPTZ)
    AND (list_contains(tags['level'], 'warn') OR list_contains(tags['level'], 'error'))
    AND list_contains(tags['service'], 'checkout')
  ORDER BY id""", [paths, start, end]).fetchall()
print(json.dumps({"total": total, "ids": [r[0] for r in rows]}))
"#;
    let out = Command::new(python)
        .args([
            "-c",
            script,
            &serde_json::to_string(&paths).unwrap(),
            start,
            end,
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let duck: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(duck["total"], 3000);
    let duck_ids: Vec<String> = duck["ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    assert!(!service.is_empty());
    assert_eq!(
        duck_ids, service,
        "DuckDB and the service select the same events"
    );
}
