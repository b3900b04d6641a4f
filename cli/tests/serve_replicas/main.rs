//! Two replicas of `jobgraph serve` on one PostgreSQL database (the real binary, a real
//! cluster from `scripts/pg-cluster.sh`): version numbering across replicas, tokens shared,
//! `kill -9` of a replica under load, the database stopped and started under load, the lake on
//! S3 shared, heartbeats of a run posted to the other replica.
//!
//! Needs `JOBGRAPH_TEST_DATABASE_URL` (scripts/test.sh sets it when it could start a cluster)
//! and, for the restart test, `JOBGRAPH_TEST_PG_CLUSTER` (the cluster's folder). Without them
//! every test says loudly that it was skipped and passes.

#[path = "../common/mod.rs"]
mod common;
mod partitions;
#[allow(dead_code)]
#[path = "../serve_lake/stream.rs"]
mod stream;
mod takeover;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use common::{Server, filter_template, postgres_database, postgres_url};

/// The tests share one cluster and one of them stops it: they run one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A fresh database for one test, or `None` (and a loud message) without a cluster.
fn database(test: &str) -> Option<String> {
    let Some(base) = postgres_url() else {
        eprintln!(
            "SKIPPED {test}: no PostgreSQL (set JOBGRAPH_TEST_DATABASE_URL; scripts/test.sh starts a cluster with scripts/pg-cluster.sh)"
        );
        return None;
    };
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    Some(postgres_database(
        &base,
        &format!("jg_{test}_{}_{nanos}", std::process::id()),
    ))
}

/// Two replicas on `url`, sharing client `ci` of organization `acme`.
fn replicas(url: &str, extra: &[&str]) -> (Server, Server) {
    let args = |more: &[&str]| {
        let mut all = vec!["--database", url, "--client", "ci:ci-secret:acme"];
        all.extend_from_slice(more);
        all.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let a = args(extra);
    let b = args(extra);
    let a = Server::start(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let b = Server::start(&b.iter().map(String::as_str).collect::<Vec<_>>());
    (a, b)
}

fn create(server: &Server, token: &str, name: &str) -> String {
    let r = server.call(
        "POST",
        "/v1/templates",
        Some(token),
        Some(&filter_template(name)),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()["id"].as_str().unwrap().to_owned()
}

#[test]
fn replicas_started_together_on_an_empty_database_migrate_it_once() {
    let _serial = serial();
    let Some(url) = database("migrate") else {
        return;
    };
    // Both start at once: one applies the migrations under the advisory lock, the other
    // waits for it and finds the schema up to date.
    let (a, b) = std::thread::scope(|scope| {
        let start = || {
            scope.spawn(|| {
                Server::start(&["--database", url.as_str(), "--client", "ci:ci-secret:acme"])
            })
        };
        let (a, b) = (start(), start());
        (a.join().unwrap(), b.join().unwrap())
    });
    for server in [&a, &b] {
        assert!(
            server
                .banner
                .iter()
                .any(|l| l.starts_with("database: postgres://")),
            "{:?}",
            server.banner
        );
        assert_eq!(server.call("GET", "/healthz", None, None).status, 200);
    }
    let applied = std::process::Command::new("psql")
        .args([
            url.as_str(),
            "-qtA",
            "-c",
            "SELECT count(*) || ' ' || max(version) FROM jobgraph_migrations",
        ])
        .output()
        .expect("psql");
    // Each migration applied once: as many rows as the newest version (two replicas racing
    // would have recorded some twice, or failed).
    let applied = String::from_utf8_lossy(&applied.stdout).trim().to_owned();
    let (rows, newest) = applied.split_once(' ').expect("count and version");
    assert_eq!(rows, newest, "{applied}");
    assert!(rows.parse::<u32>().unwrap() >= 2, "{applied}");
    let token = a.token("ci", "ci-secret");
    let id = create(&a, &token, "Shared");
    let r = b.call("GET", &format!("/v1/templates/{id}"), Some(&token), None);
    assert_eq!(r.status, 200, "{}", r.body);
}

#[test]
fn concurrent_updates_through_two_replicas_number_versions_1_to_401() {
    let _serial = serial();
    let Some(url) = database("numbering") else {
        return;
    };
    let (a, b) = replicas(&url, &[]);
    let token = a.token("ci", "ci-secret");
    let health = b.call("GET", "/healthz", None, None);
    assert_eq!(health.status, 200, "{}", health.body);
    assert_eq!(health.json()["database"], "postgres");
    // A token issued by replica A is accepted by replica B (it lives in the database only).
    let id = create(&b, &token, "Contended");
    let seen: Vec<u64> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..8)
            .map(|client| {
                let (a, b, id, token) = (&a, &b, &id, &token);
                scope.spawn(move || {
                    (0..50)
                        .map(|i| {
                            let server = if (client + i) % 2 == 0 { a } else { b };
                            let body = filter_template(&format!("client {client} write {i}"));
                            let r = server.call(
                                "PUT",
                                &format!("/v1/templates/{id}"),
                                Some(token),
                                Some(&body),
                            );
                            assert_eq!(r.status, 200, "{}", r.body);
                            r.json()["version"].as_u64().unwrap()
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    let acknowledged: BTreeSet<u64> = seen.iter().copied().collect();
    assert_eq!(acknowledged.len(), 400, "no version number given twice");
    assert_eq!(acknowledged, (2..=401).collect());
    for server in [&a, &b] {
        // Every version in one page (the default page is 100).
        let all = server.call(
            "GET",
            &format!("/v1/templates/{id}?limit=1000"),
            Some(&token),
            None,
        );
        assert!(all.json().get("nextCursor").is_none(), "{}", all.body);
        let versions: Vec<u64> = all.json()["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["version"].as_u64().unwrap())
            .collect();
        assert_eq!(versions, (1..=401).collect::<Vec<_>>());
    }
    // Optimistic checks hold across replicas: version 401 was written, so 401 is stale on A.
    let mut stale = filter_template("stale");
    stale["version"] = 401.into();
    let r = a.call(
        "PUT",
        &format!("/v1/templates/{id}"),
        Some(&token),
        Some(&stale),
    );
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(r.json()["currentVersion"], 401);
}

#[test]
fn kill_9_of_one_replica_under_load_loses_no_acknowledged_write() {
    let _serial = serial();
    let Some(url) = database("kill") else {
        return;
    };
    let (mut a, b) = replicas(&url, &[]);
    let token = a.token("ci", "ci-secret");
    let acknowledged = Mutex::new(Vec::<String>::new());
    let killed = AtomicBool::new(false);
    let after_kill = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for writer in 0..4 {
            let (a, b, token, acknowledged, killed, after_kill) =
                (&a, &b, &token, &acknowledged, &killed, &after_kill);
            scope.spawn(move || {
                let deadline = Instant::now() + Duration::from_secs(20);
                for i in 0.. {
                    if after_kill.load(Ordering::Relaxed) >= 40 || Instant::now() > deadline {
                        break;
                    }
                    let on_a = (writer + i) % 2 == 0;
                    let server = if on_a { a } else { b };
                    let body = filter_template(&format!("writer {writer} #{i}"));
                    let r = server.try_call("POST", "/v1/templates", Some(token), Some(&body));
                    if r.status == 201 {
                        acknowledged
                            .lock()
                            .unwrap()
                            .push(r.json()["id"].as_str().unwrap().to_owned());
                        if killed.load(Ordering::Relaxed) && !on_a {
                            after_kill.fetch_add(1, Ordering::Relaxed);
                        }
                    } else {
                        // Only the killed replica may fail, and only once it is being killed.
                        assert!(on_a, "replica B failed: {} {}", r.status, r.body);
                    }
                }
            });
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while acknowledged.lock().unwrap().len() < 40 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        killed.store(true, Ordering::Relaxed);
        // SAFETY: kill(2) on the child this test started.
        unsafe {
            libc::kill(a.child.id() as libc::pid_t, libc::SIGKILL);
        }
    });
    a.kill9();
    assert!(
        after_kill.load(Ordering::Relaxed) >= 40,
        "replica B kept serving writes after A was killed"
    );
    let acknowledged = acknowledged.into_inner().unwrap();
    for id in &acknowledged {
        let r = b.call("GET", &format!("/v1/templates/{id}"), Some(&token), None);
        assert_eq!(r.status, 200, "acknowledged template {id} lost: {}", r.body);
    }
    let list = b.call("GET", "/v1/templates", Some(&token), None);
    assert!(list.json()["items"].as_array().unwrap().len() >= acknowledged.len());
}

fn cluster_script(action: &str, dir: &str) {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts/pg-cluster.sh");
    let status = std::process::Command::new("bash")
        .arg(script)
        .args([action, dir])
        .status()
        .expect("bash");
    assert!(status.success(), "pg-cluster.sh {action} {dir} failed");
}

#[test]
fn the_database_stopped_under_load_gives_503_then_the_service_recovers() {
    let _serial = serial();
    let Some(url) = database("restart") else {
        return;
    };
    let Ok(cluster) = std::env::var("JOBGRAPH_TEST_PG_CLUSTER") else {
        eprintln!(
            "SKIPPED the_database_stopped_under_load…: JOBGRAPH_TEST_PG_CLUSTER (the folder of scripts/pg-cluster.sh's cluster) is not set"
        );
        return;
    };
    let (a, _b) = replicas(&url, &["--database-timeout-ms", "1000"]);
    let token = a.token("ci", "ci-secret");
    let id = create(&a, &token, "Survivor");
    let path = format!("/v1/templates/{id}?latest=true");
    assert_eq!(a.call("GET", &path, Some(&token), None).status, 200);

    cluster_script("stop", &cluster);
    let stopped = Instant::now();
    let mut unavailable = None;
    while stopped.elapsed() < Duration::from_secs(15) {
        let r = a.try_call("GET", &path, Some(&token), None);
        if r.status == 503 {
            unavailable = Some(r);
            break;
        }
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let unavailable = unavailable.expect("a 503 while the database is down");
    assert!(
        unavailable.json()["error"]
            .as_str()
            .unwrap()
            .contains("database")
    );
    assert_eq!(unavailable.header("retry-after"), Some("1"));
    assert!(
        !unavailable.body.contains("127.0.0.1"),
        "no internals: {}",
        unavailable.body
    );
    assert_eq!(a.try_call("GET", "/healthz", None, None).status, 503);
    let write = a.try_call(
        "POST",
        "/v1/templates",
        Some(&token),
        Some(&filter_template("x")),
    );
    assert_eq!(write.status, 503, "{}", write.body);

    cluster_script("resume", &cluster);
    let resumed = Instant::now();
    let mut recovered = false;
    while resumed.elapsed() < Duration::from_secs(30) {
        if a.try_call("GET", &path, Some(&token), None).status == 200 {
            recovered = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        recovered,
        "no recovery within 30 s of the database's return"
    );
    assert_eq!(a.call("GET", "/healthz", None, None).status, 200);
    create(&a, &token, "after the restart");
}

/// Issue 22: two replicas on one database and one S3-compatible bucket (moto) see the same
/// datasets and files: one loads, the other queries.
#[test]
fn one_replica_loads_a_dataset_into_s3_and_the_other_queries_it() {
    let _serial = serial();
    let Some(url) = database("lake_s3") else {
        return;
    };
    let Some(moto) = common::moto::Moto::start("lake_s3", "lake") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.json");
    let settings = serde_json::json!({"lake": {
        "root": "s3://lake/replicas", "s3Endpoint": moto.endpoint(), "s3Region": "us-east-1",
        "s3AccessKeyId": "test", "s3SecretAccessKey": "test-secret", "s3AllowHttp": true}});
    std::fs::write(&config, settings.to_string()).unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let config = config.to_string_lossy().into_owned();
    let (a, b) = replicas(&url, &["--config", &config]);
    assert!(
        a.banner.iter().any(|l| l == "lake: s3://lake/replicas"),
        "{:?}",
        a.banner
    );
    assert!(!a.banner.concat().contains("test-secret"));
    let token = a.token("ci", "ci-secret");
    let r = a.call(
        "POST",
        "/v1/datasets",
        Some(&token),
        Some(&serde_json::json!({"name": "shared"})),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_owned();
    let lines: String = (0..500)
        .map(|i| {
            format!(
                "{{\"id\":\"e{i:03}\",\"eventTimestamp\":\"2026-11-25T{:02}:{:02}:00Z\",\"message\":\"m{i}\",\"tags\":{{\"service\":[\"{}\"]}}}}\n",
                i / 60 % 24,
                i % 60,
                if i % 4 == 0 { "checkout" } else { "web" }
            )
        })
        .collect();
    let r = common::request(
        a.addr,
        "POST",
        &format!("/v1/datasets/{id}/load"),
        &[("Authorization".into(), format!("Bearer {token}"))],
        Some(lines.as_bytes()),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["events"], 500);

    // Replica B: the dataset, its files and its events.
    let r = b.call(
        "GET",
        &format!("/v1/datasets/{id}/files"),
        Some(&token),
        None,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(!r.json()["items"].as_array().unwrap().is_empty());
    let job = serde_json::json!({
        "name": "q", "execution": "SYNCHRONOUS", "processing": "BATCH",
        "jobGraph": {"vertices": [
            {"type": "logs-iceberg-table-source", "name": "s", "datasetId": id,
             "start": "2026-11-25T00:00:00Z", "end": "2026-11-26T00:00:00Z", "limit": 10000,
             "query": {"type": "simple-query", "query": "service:checkout"}},
            {"type": "logs-sync-sink", "name": "o"}], "edges": ["s -> o"]}
    });
    let r = b.call("POST", "/v1/jobs/sync", Some(&token), Some(&job));
    assert_eq!(r.status, 200, "{}", r.body);
    let records: Vec<serde_json::Value> = r
        .body
        .split("\r\n")
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        records.last().unwrap()["jobState"],
        "FINISHED",
        "{records:?}"
    );
    let events = records
        .iter()
        .filter(|r| r["jobState"] == "RUNNING" && r["data"].is_object())
        .count();
    assert_eq!(events, 125, "every fourth event is checkout");
    drop(moto);
}

#[test]
fn heartbeats_posted_to_the_other_replica_keep_a_run_alive() {
    let _serial = serial();
    let Some(url) = database("heartbeats") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.json");
    let lake = dir.path().join("lake");
    let settings = serde_json::json!({
        "syncRuns": {"heartbeatIntervalMs": 50, "heartbeatTimeoutMs": 1500},
        "lake": {"root": format!("file://{}", lake.to_string_lossy()), "queryTimeoutMs": 60000},
    });
    std::fs::write(&config, settings.to_string()).unwrap();
    let config = config.to_string_lossy().into_owned();
    let (a, b) = replicas(&url, &["--config", &config]);
    let token = a.token("ci", "ci-secret");
    let r = a.call(
        "POST",
        "/v1/datasets",
        Some(&token),
        Some(&serde_json::json!({"name": "wide"})),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_owned();
    // ~12 MB of records: more than the socket and the run's channel hold, so the run waits
    // for its reader as long as the reader waits.
    let pad = "x".repeat(160);
    let lines: String = (0..60_000)
        .map(|i| {
            format!(
                "{{\"id\":\"e{i:05}\",\"eventTimestamp\":\"2026-11-25T{:02}:{:02}:{:02}Z\",\"message\":\"m{i} {pad}\"}}\n",
                i / 3600 % 24,
                i / 60 % 60,
                i % 60
            )
        })
        .collect();
    let r = common::request(
        a.addr,
        "POST",
        &format!("/v1/datasets/{id}/load"),
        &[("Authorization".into(), format!("Bearer {token}"))],
        Some(lines.as_bytes()),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let job = serde_json::json!({
        "name": "q", "execution": "SYNCHRONOUS", "processing": "BATCH",
        "jobGraph": {"vertices": [
            {"type": "logs-iceberg-table-source", "name": "s", "datasetId": id,
             "start": "2026-11-25T00:00:00Z", "end": "2026-11-26T00:00:00Z", "limit": 1000000},
            {"type": "logs-sync-sink", "name": "o"}], "edges": ["s -> o"]}
    });

    // The run is on A; its client posts the heartbeat token to B only, for 4.5 s (three times
    // the allowed silence), reading nothing meanwhile, then reads everything.
    let mut run = stream::open_sync(&a, &token, &job);
    assert_eq!(run.status, 200);
    let mut records = Vec::new();
    let beat = loop {
        let record = run.next_record().expect("a heartbeat before the end");
        if let Some(t) = record["heartbeatToken"].as_str() {
            break t.to_owned();
        }
        records.push(record);
    };
    let until = Instant::now() + Duration::from_millis(4500);
    while Instant::now() < until {
        stream::heartbeat(&b, &token, &beat);
        std::thread::sleep(Duration::from_millis(200));
    }
    records.extend(run.read_all());
    let last = records.last().unwrap();
    assert_eq!(last["jobState"], "FINISHED", "{last}");
    let events = records
        .iter()
        .filter(|r| r["jobState"] == "RUNNING" && r["data"].is_object())
        .count();
    assert_eq!(events, 60_000);

    // Without them the same run is cancelled: the test above is not passing by accident.
    let mut run = stream::open_sync(&a, &token, &job);
    assert_eq!(run.status, 200);
    std::thread::sleep(Duration::from_millis(3000));
    let records = run.read_all();
    assert_eq!(records.last().unwrap()["jobState"], "CANCELLED");
}
