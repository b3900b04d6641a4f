//! The lake on S3: moto's server on loopback (target/lake-venv, scripts/setup.sh).
#![cfg(feature = "s3")]

mod common;
#[path = "common/venv.rs"]
mod venv;

use std::collections::HashSet;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{canonical, hourly, request, scan_all, spec, write_all};
use jobgraph_lake::{Lake, Partitioning, S3Options, WriteOptions};

/// Kills the server when the test ends, passing or not.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("{e}"));
    listener
        .local_addr()
        .unwrap_or_else(|e| panic!("{e}"))
        .port()
}

fn wait_for_port(port: u16, server: &mut Server) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = server.0.try_wait() {
            panic!("moto_server exited: {status}");
        }
        assert!(
            Instant::now() < deadline,
            "moto_server did not listen on {port} within 60 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// An unsigned `PUT /<bucket>` (moto, like S3, wants the bucket to exist).
fn create_bucket(port: u16, bucket: &str) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap_or_else(|e| panic!("{e}"));
    let request = format!(
        "PUT /{bucket} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    );
    stream
        .write_all(request.as_bytes())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    assert!(
        answer.starts_with("HTTP/1.1 200"),
        "create bucket: {answer}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn write_scan_and_collect_garbage_on_moto() {
    let Some(moto) = venv::tool("s3::write_scan_and_collect_garbage_on_moto", "moto_server") else {
        return;
    };
    let port = free_port();
    let child = Command::new(&moto)
        .args(["-H", "127.0.0.1", "-p", &port.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", moto.display()));
    let mut server = Server(child);
    wait_for_port(port, &mut server);
    create_bucket(port, "lake");

    let options = S3Options {
        endpoint: Some(format!("http://127.0.0.1:{port}")),
        region: Some("us-east-1".into()),
        access_key_id: Some("test".into()),
        secret_access_key: Some("test-secret".into()),
        allow_http: true,
    };
    let lake = Lake::open("s3://lake/some/prefix", &options).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(lake.describe(), "s3://lake/some/prefix");
    assert!(!lake.describe().contains("test-secret"));

    let events = hourly(6, 50, 3);
    let files = write_all(
        &lake,
        spec(Partitioning::Hour),
        "run-s3",
        &events,
        WriteOptions::default(),
    )
    .await;
    assert_eq!(files.len(), 6);
    let (back, stats) = scan_all(&lake, request(&files, i64::MIN, i64::MAX, vec![], u64::MAX))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(canonical(&back), canonical(&events));
    println!(
        "moto: {} events in {} files, {} bytes scanned",
        back.len(),
        files.len(),
        stats.bytes_scanned
    );
    let rare = vec![vec![("service".to_owned(), "aardvark".to_owned())]];
    let (_, stats) = scan_all(&lake, request(&files, i64::MIN, i64::MAX, rare, u64::MAX))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((stats.files_scanned, stats.row_groups_scanned), (1, 1));

    // An aborted run leaves nothing; GC deletes what is not kept.
    let mut writer = lake.writer(
        spec(Partitioning::Hour),
        "run-aborted",
        WriteOptions {
            max_file_bytes: 2048,
            ..WriteOptions::default()
        },
    );
    writer
        .write(&hourly(2, 50, 0))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    writer.abort().await.unwrap_or_else(|e| panic!("{e}"));
    let orphans = write_all(
        &lake,
        spec(Partitioning::Hour),
        "run-orphan",
        &hourly(1, 5, 0),
        WriteOptions::default(),
    )
    .await;
    let keep: HashSet<String> = files.iter().map(|f| f.path.clone()).collect();
    let deleted = lake
        .collect_garbage("org-1", "ds-1", &keep, Duration::ZERO)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(deleted, orphans.len());
    let (back, _) = scan_all(&lake, request(&files, i64::MIN, i64::MAX, vec![], u64::MAX))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.len(), events.len());
    drop(server);
}
