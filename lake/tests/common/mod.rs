//! Helpers shared by the lake's tests.
#![allow(dead_code)]

use jobgraph_lake::{
    DataFile, Lake, LakeError, Partitioning, ScanOrder, ScanRequest, ScanStats, TableSpec,
    TagConstraints, WriteOptions,
};
use jobgraph_model::LogEvent;
use serde_json::json;

/// 2026-11-01T00:00:00Z in microseconds.
pub const BASE_US: i64 = 1_793_491_200_000_000;
pub const HOUR_US: i64 = 3_600_000_000;

pub fn spec(partitioning: Partitioning) -> TableSpec {
    TableSpec {
        organization: "org-1".into(),
        dataset_id: "ds-1".into(),
        table: "logs".into(),
        partitioning,
        promoted_tags: vec!["service".into(), "host".into(), "level".into()],
    }
}

pub fn event(value: serde_json::Value) -> LogEvent {
    match LogEvent::from_value(value) {
        Ok(e) => e,
        Err(e) => panic!("test event: {e}"),
    }
}

/// `per_hour` events an hour for `hours` hours from `BASE_US`; services alpha/beta/delta
/// everywhere, `aardvark` (below every other value) in one event of hour `rare_hour` only.
pub fn hourly(hours: i64, per_hour: i64, rare_hour: i64) -> Vec<LogEvent> {
    let services = ["alpha", "beta", "delta"];
    let mut events = Vec::new();
    for h in 0..hours {
        for i in 0..per_hour {
            let us = BASE_US + h * HOUR_US + i * (HOUR_US / per_hour);
            let ms = us / 1000;
            let service = if h == rare_hour && i == 7 {
                "aardvark"
            } else {
                services[(i % 3) as usize]
            };
            let level = ["info", "warn", "error"][(i % 3) as usize];
            events.push(event(json!({
                "id": format!("e-{h}-{i}"),
                "eventTimestamp": ms,
                "message": format!("request {i} of hour {h} took {} ms", (i * 37) % 1000),
                "severity": 9 + (i % 4) * 4,
                "tags": {"service": [service], "host": [format!("host-{}", i % 16)], "level": [level]},
                "attributes": {"http": {"status": 200 + (i % 5), "path": format!("/api/v1/items/{}", i % 50)}},
            })));
        }
    }
    events
}

pub async fn write_all(
    lake: &Lake,
    spec: TableSpec,
    run: &str,
    events: &[LogEvent],
    options: WriteOptions,
) -> Vec<DataFile> {
    let mut writer = lake.writer(spec, run, options);
    for chunk in events.chunks(5000) {
        if let Err(e) = writer.write(chunk).await {
            panic!("write: {e}");
        }
    }
    match writer.finish().await {
        Ok(files) => files,
        Err(e) => panic!("finish: {e}"),
    }
}

pub fn request(
    files: &[DataFile],
    start_us: i64,
    end_us: i64,
    constraints: TagConstraints,
    max_bytes: u64,
) -> ScanRequest {
    ScanRequest {
        files: files.to_vec(),
        start_us,
        end_us,
        constraints,
        max_bytes,
        batch_rows: 1024,
        order: ScanOrder::Files,
    }
}

pub async fn scan_all(
    lake: &Lake,
    request: ScanRequest,
) -> Result<(Vec<LogEvent>, ScanStats), LakeError> {
    let mut scanner = lake.scan(request).await?;
    let mut events = Vec::new();
    while let Some(batch) = scanner.next_batch().await? {
        events.extend(batch);
    }
    Ok((events, scanner.stats()))
}

/// Regular files under a directory (recursively).
pub fn files_under(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// Sorted canonical JSON texts of events (order-free comparison).
pub fn canonical(events: &[LogEvent]) -> Vec<String> {
    let mut texts: Vec<String> = events.iter().map(|e| e.to_value().to_string()).collect();
    texts.sort();
    texts
}
