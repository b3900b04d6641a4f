//! Row 3 of the probe: unauthenticated triggers filled the disk (100 × 9.9 MB accepted in
//! 5.3 s, ~187 MB/s into the database, no rate limit or quota). A trigger now names a job
//! (`?job=`), its payload is at most 64 KiB, each address and organization has a budget
//! (429 + `Retry-After`), and an organization keeps only its newest triggers.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{Server, postgres_url};

/// A job of `server`'s organization to trigger.
fn create_job(server: &Server, token: &str) -> String {
    let r = server.call(
        "POST",
        "/v1/jobs",
        Some(token),
        Some(&json!({"name": "triggered", "execution": "ASYNCHRONOUS", "processing": "STREAMING",
            "jobGraph": {"vertices": [
                {"type": "logs-iceberg-table-source", "name": "src", "table": "logs", "processing": "STREAM",
                 "query": {"type": "simple-query", "query": "*"}},
                {"type": "datadog-log-sink", "name": "sink", "integrationId": "dd-prod"}],
             "edges": ["src -> sink"]}})),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()["id"].as_str().unwrap().to_owned()
}

fn trigger(server: &Server, job: &str, payload: &Value) -> crate::common::Response {
    server.call(
        "POST",
        &format!("/v1/triggers?job={job}"),
        None,
        Some(payload),
    )
}

#[test]
fn triggers_are_rate_limited_per_address_with_retry_after() {
    let _one = crate::one_at_a_time();
    let server = Server::start_with_config(
        &json!({"triggers": {"addressBurst": 20, "addressPeriodMs": 60000}}),
        &["--client", "ops:ops-secret:acme"],
    );
    let token = server.token("ops", "ops-secret");
    let job = create_job(&server, &token);
    let statuses: Vec<u16> = (0..25)
        .map(|n| trigger(&server, &job, &json!({"n": n})).status)
        .collect();
    eprintln!("25 triggers from one address with a burst of 20: {statuses:?}");
    assert!(statuses[..20].iter().all(|s| *s == 202), "{statuses:?}");
    assert!(statuses[20..].iter().all(|s| *s == 429), "{statuses:?}");
    let r = trigger(&server, &job, &json!({}));
    assert_eq!(r.status, 429);
    let wait: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait), "Retry-After {wait}");
    assert!(r.error().contains("20 triggers"), "{}", r.body);
    // Unknown jobs and missing ones spend the address's budget too: no free probing.
    let r = server.call("POST", "/v1/triggers?job=nope", None, Some(&json!({})));
    assert_eq!(r.status, 429);
}

#[test]
fn payloads_are_capped_and_an_organization_keeps_only_its_newest_triggers() {
    let _one = crate::one_at_a_time();
    let server = Server::start_with_config(
        // The rows are counted below in the SQLite file, opened beside the running server.
        &json!({"triggers": {"keptPerOrganization": 50, "addressBurst": 100000},
                "sqliteAccess": "shared"}),
        &[
            "--client",
            "ops:ops-secret:acme",
            "--client",
            "dev:dev-secret:globex",
        ],
    );
    let token = server.token("ops", "ops-secret");
    let job = create_job(&server, &token);
    // The probe's 9.9 MB payload: 413 before a byte of it is sent.
    let started = Instant::now();
    let mut stream = TcpStream::connect(server.addr).unwrap();
    stream
        .write_all(
            format!(
                "POST /v1/triggers?job={job} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 9900000\r\n\r\n"
            )
            .as_bytes(),
        )
        .unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    eprintln!(
        "a 9.9 MB trigger, head only: answered in {:?}",
        started.elapsed()
    );
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("65536 bytes"), "{answer}");
    assert!(started.elapsed() < Duration::from_secs(2));
    // 200 triggers of 60 KB: accepted, but only the newest 50 are kept.
    let payload = json!({"blob": "x".repeat(60_000)});
    let started = Instant::now();
    for _ in 0..200 {
        assert_eq!(trigger(&server, &job, &payload).status, 202);
    }
    // Another organization's triggers are not pruned by acme's.
    let other = create_job(&server, &server.token("dev", "dev-secret"));
    assert_eq!(trigger(&server, &other, &json!({"n": 1})).status, 202);
    eprintln!("200 triggers of 60 KB in {:?}", started.elapsed());
    if postgres_url().is_some() {
        return; // the rows are counted in the SQLite file below
    }
    let db = rusqlite::Connection::open_with_flags(
        server.data.join("db").join("jobgraph.db"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .unwrap();
    let count = |org: &str| -> (i64, i64) {
        db.query_row(
            "SELECT COUNT(*), COALESCE(SUM(LENGTH(payload)), 0) FROM triggers WHERE org = ?1",
            [org],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .unwrap()
    };
    let (kept, bytes) = count("acme");
    eprintln!("kept for acme: {kept} triggers, {} KB", bytes / 1000);
    assert_eq!(kept, 50);
    assert!(bytes < 50 * 61_000);
    assert_eq!(count("globex").0, 1);
}
