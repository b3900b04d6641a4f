//! A run resumed from a snapshot gives the sinks what the run that went on gives them.

use super::super::*;
use crate::pipeline::report::{Run, RunInput};
use serde_json::{Value, json};

fn pipeline(graph: &Value) -> Pipeline {
    Pipeline::compile(&serde_json::from_value(graph.clone()).unwrap()).unwrap()
}

fn input(items: &[Value]) -> RunInput {
    RunInput {
        events: items
            .iter()
            .map(|v| LogEvent::from_value(v.clone()).unwrap())
            .collect(),
        ..Default::default()
    }
}

fn logins(n: usize, start_ms: i64, step_ms: i64) -> Vec<Value> {
    (0..n)
        .map(|i| {
            json!({"id": format!("e{start_ms}-{i}"), "eventTimestamp": start_ms + i as i64 * step_ms,
                   "message": format!("user {i} logged in from 10.0.0.{}", i % 250),
                   "attributes": {"bytes": i, "host": format!("h{}", i % 3)},
                   "tags": {"service": [if i % 2 == 0 { "web" } else { "api" }]}})
        })
        .collect()
}

fn sinks(runs: impl IntoIterator<Item = Run>) -> IndexMap<String, Vec<LogEvent>> {
    let mut out: IndexMap<String, Vec<LogEvent>> = IndexMap::new();
    for run in runs {
        for (sink, events) in run.sinks {
            out.entry(sink).or_default().extend(events);
        }
    }
    out
}

/// `first` then `second` then the windows closed, in one run and across a snapshot.
fn straight_and_resumed(graph: &Value, first: &[Value], second: &[Value]) -> (Vec<u8>, bool) {
    let p = pipeline(graph);
    let mut straight = p.start(RunOptions::default());
    let a = straight.push(input(first)).unwrap();
    let snapshot = straight.snapshot();
    let b = straight.push(input(second)).unwrap();
    let c = straight.close_windows().unwrap();
    let expected = sinks([a.clone(), b, c]);

    let mut resumed = p.resume(RunOptions::default(), &snapshot).unwrap();
    let b = resumed.push(input(second)).unwrap();
    let c = resumed.close_windows().unwrap();
    let got = sinks([a, b, c]);
    assert_eq!(got, expected);
    (snapshot, !resumed.carried().is_empty())
}

const REDUCER: &str = r#"{"vertices": [
    {"type": "logs-iceberg-table-source", "name": "in"},
    {"type": "log-reducer", "name": "r", "partitionByTags": ["service"],
     "attributeMergeStrategyEntries": [
        {"attributePath": ["bytes"], "strategy": {"type": "composite", "strategies": [{"type": "sum"}, {"type": "max"}]}}],
     "defaultAttributesMergeStrategy": {"type": "preserve", "limit": 3}},
    {"type": "logs-event-sampler", "name": "s", "maxAllowedRate": 2, "maxBurstLimit": 3},
    {"type": "logs-sync-sink", "name": "out"}],
    "edges": ["in -> r", "r -> s", "s -> out"]}"#;

#[test]
fn a_reducer_and_a_sampler_resume_mid_window() {
    let graph: Value = serde_json::from_str(REDUCER).unwrap();
    // The snapshot falls inside a two-minute window, with held events and merges open.
    let (snapshot, carried) =
        straight_and_resumed(&graph, &logins(40, 0, 1000), &logins(60, 40_000, 1500));
    assert!(carried);
    assert!(snapshot.len() < 16_384, "{} bytes", snapshot.len());
}

#[test]
fn a_fresh_run_and_an_empty_snapshot_resume_alike() {
    let graph: Value = serde_json::from_str(REDUCER).unwrap();
    let p = pipeline(&graph);
    let fresh = p.start(RunOptions::default());
    let resumed = p.resume(RunOptions::default(), &fresh.snapshot()).unwrap();
    assert!(resumed.carried().is_empty());
    // An empty first batch: the states exist, with nothing in them.
    straight_and_resumed(&graph, &[], &logins(10, 0, 1000));
}

#[test]
fn a_changed_vertex_starts_fresh_and_the_others_carry_on() {
    let graph: Value = serde_json::from_str(REDUCER).unwrap();
    let mut running = pipeline(&graph).start(RunOptions::default());
    running.push(input(&logins(20, 0, 1000))).unwrap();
    let mut changed = graph.clone();
    changed["vertices"][2]["maxBurstLimit"] = json!(5);
    let next = pipeline(&changed);
    assert_eq!(running.carried_by(&next), ["r"]);
    let resumed = next
        .resume(RunOptions::default(), &running.snapshot())
        .unwrap();
    assert_eq!(resumed.carried(), ["r"]);
    // A renamed vertex is another vertex.
    let mut renamed = graph.clone();
    renamed["vertices"][1]["name"] = json!("r2");
    renamed["edges"] = json!(["in -> r2", "r2 -> s", "s -> out"]);
    let next = pipeline(&renamed);
    assert_eq!(running.carried_by(&next), ["s"]);
}

#[test]
fn windows_kept_open_for_the_next_version_stay_open() {
    let graph: Value = serde_json::from_str(REDUCER).unwrap();
    let mut running = pipeline(&graph).start(RunOptions::default());
    running.push(input(&logins(20, 0, 1000))).unwrap();
    let kept = running.close_windows_except(&["r".to_owned()]).unwrap();
    assert!(kept.sinks["out"].is_empty());
    let closed = running.close_windows().unwrap();
    assert!(!closed.sinks["out"].is_empty());
}

#[test]
fn bytes_that_are_not_a_snapshot_are_refused_without_a_panic() {
    let graph: Value = serde_json::from_str(REDUCER).unwrap();
    let p = pipeline(&graph);
    let mut running = p.start(RunOptions::default());
    running.push(input(&logins(30, 0, 1000))).unwrap();
    let good = running.snapshot();
    for bad in [&b""[..], b"\xff\x00garbage", &good[..good.len() / 2]] {
        let e = p.resume(RunOptions::default(), bad).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("Snapshot refused: not a pipeline snapshot"),
            "{e}"
        );
    }
    // Every single byte changed: refused or resumed, never a panic.
    for i in 0..good.len() {
        let mut bytes = good.clone();
        bytes[i] ^= 0x5a;
        if let Ok(mut resumed) = p.resume(RunOptions::default(), &bytes) {
            let _ = resumed.push(input(&logins(5, 60_000, 1000)));
            let _ = resumed.close_windows();
        }
    }
    // Another format.
    let mut value: ciborium::Value = ciborium::from_reader(&good[..]).unwrap();
    if let ciborium::Value::Map(fields) = &mut value {
        fields[0].1 = ciborium::Value::Integer(99.into());
    }
    let mut other = Vec::new();
    ciborium::into_writer(&value, &mut other).unwrap();
    let e = p.resume(RunOptions::default(), &other).unwrap_err();
    assert!(e.to_string().contains("format 99"), "{e}");
}

#[test]
#[ignore = "a measurement: prints the size of a snapshot of 10,000 patterns"]
fn measure_ten_thousand_patterns() {
    let graph = json!({"vertices": [
        {"type": "logs-iceberg-table-source", "name": "in"},
        {"type": "log-reducer", "name": "r"},
        {"type": "logs-sync-sink", "name": "out"}],
        "edges": ["in -> r", "r -> out"]});
    // Letters only (digits are masked): each message its own pattern.
    let word = |mut n: usize| {
        let mut w = String::new();
        for _ in 0..4 {
            w.push((b'a' + (n % 26) as u8) as char);
            n /= 26;
        }
        w
    };
    let items: Vec<Value> = (0..10_000)
        .map(|i: usize| {
            let m: Vec<String> = (0..8).map(|k| word(i * 7919 + k * 104_729)).collect();
            json!({"eventTimestamp": 1000, "message": m.join(" "), "attributes": {"bytes": i}})
        })
        .collect();
    let p = pipeline(&graph);
    let mut running = p.start(RunOptions::default());
    running.push(input(&items)).unwrap();
    let started = std::time::Instant::now();
    let snapshot = running.snapshot();
    let took = started.elapsed();
    let started = std::time::Instant::now();
    p.resume(RunOptions::default(), &snapshot).unwrap();
    let patterns = running.close_windows().unwrap().vertices[1].patterns.len();
    println!(
        "{} bytes, snapshot {took:?}, resume {:?}, patterns reported {patterns}",
        snapshot.len(),
        started.elapsed()
    );
}
