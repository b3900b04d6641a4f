//! A streaming run ([`Running`]): batch after batch, then the windows closed, the sinks get
//! what one run on all the events gives them.

use super::*;
use serde_json::{Value, json};

fn pipeline(graph: Value) -> Pipeline {
    Pipeline::compile(&serde_json::from_value(graph).unwrap()).unwrap()
}

fn events(items: impl IntoIterator<Item = Value>) -> Vec<LogEvent> {
    items
        .into_iter()
        .map(|v| LogEvent::from_value(v).unwrap())
        .collect()
}

fn input(events: Vec<LogEvent>) -> RunInput {
    RunInput {
        events,
        ..Default::default()
    }
}

/// The sinks of `graph` run once on `all`, and streamed in batches cut at `cuts`.
fn whole_and_streamed(
    graph: Value,
    all: &[LogEvent],
    cuts: &[usize],
) -> (
    IndexMap<String, Vec<LogEvent>>,
    IndexMap<String, Vec<LogEvent>>,
) {
    let p = pipeline(graph);
    let whole = p.run(input(all.to_vec()), &RunOptions::default()).unwrap();
    let mut running = p.start(RunOptions::default());
    let mut streamed: IndexMap<String, Vec<LogEvent>> = IndexMap::new();
    let mut add = |run: Run| {
        for (sink, events) in run.sinks {
            streamed.entry(sink).or_default().extend(events);
        }
    };
    let mut from = 0;
    for &cut in cuts.iter().chain([&all.len()]) {
        add(running.push(input(all[from..cut].to_vec())).unwrap());
        from = cut;
    }
    add(running.close_windows().unwrap());
    assert_eq!(running.batches(), cuts.len() as u64 + 2);
    (whole.sinks, streamed)
}

fn logins(n: usize, start_ms: i64) -> Vec<Value> {
    (0..n)
        .map(|i| {
            json!({"id": format!("e{start_ms}-{i}"), "eventTimestamp": start_ms + i as i64 * 1000,
                   "message": format!("user {i} logged in from 10.0.0.{}", i % 250),
                   "tags": {"service": ["web"], "level": [if i % 3 == 0 { "error" } else { "info" }]}})
        })
        .collect()
}

#[test]
fn stateless_vertices_give_the_same_sinks_in_batches() {
    let all = events(logins(30, 0));
    let (whole, streamed) = whole_and_streamed(
        json!({"vertices": [
            {"type": "logs-iceberg-table-source", "name": "in"},
            {"type": "logs-filter", "name": "errors",
             "query": {"type": "simple-query", "query": "level:error"}},
            {"type": "log-transform", "name": "mark", "transforms": [
                {"type": "tag-action", "order": 1, "modification": "ADD", "tagKey": "routed", "values": ["vendor"]}]},
            {"type": "logs-sync-sink", "name": "out"}],
            "edges": ["in -> errors", "errors -> mark", "mark -> out"]}),
        &all,
        &[1, 7, 7, 20],
    );
    assert_eq!(whole["out"].len(), 10);
    assert_eq!(streamed, whole);
}

#[test]
fn a_sampler_keeps_its_bucket_between_batches() {
    let all = events(logins(40, 0).into_iter().map(|mut e| {
        // Ten events a second: a bucket of 2 refilled at 1 a second drops most.
        let t = e["eventTimestamp"].as_i64().unwrap() / 10;
        e["eventTimestamp"] = json!(t);
        e
    }));
    let (whole, streamed) = whole_and_streamed(
        json!({"vertices": [
            {"type": "logs-iceberg-table-source", "name": "in"},
            {"type": "logs-event-sampler", "name": "s", "maxAllowedRate": 1, "maxBurstLimit": 2},
            {"type": "logs-sync-sink", "name": "out"}],
            "edges": ["in -> s", "s -> out"]}),
        &all,
        &[3, 11, 25],
    );
    assert!(
        whole["out"].len() > 2 && whole["out"].len() < 40,
        "{}",
        whole["out"].len()
    );
    assert_eq!(streamed, whole);
}

#[test]
fn a_reducer_keeps_its_patterns_and_window_between_batches_and_closes_it_when_asked() {
    // Two windows of two minutes, and a pattern that comes back in the second.
    let mut items = logins(20, 0);
    items.extend(logins(15, 130_000));
    items.push(json!({"id": "odd", "eventTimestamp": 131_000, "message": "disk /dev/sda1 full"}));
    let all = events(items);
    let graph = json!({"vertices": [
        {"type": "logs-iceberg-table-source", "name": "in"},
        {"type": "log-reducer", "name": "r"},
        {"type": "logs-sync-sink", "name": "out"}],
        "edges": ["in -> r", "r -> out"]});
    let (whole, streamed) = whole_and_streamed(graph.clone(), &all, &[2, 19, 21, 30]);
    let kinds = |events: &[LogEvent]| -> Vec<String> {
        events
            .iter()
            .map(|e| e.tags["grepr.messagetype"][0].clone())
            .collect()
    };
    assert!(kinds(&whole["out"]).contains(&"summary".to_owned()));
    assert_eq!(streamed, whole);
    // Without the close, the last window's summaries are still held.
    let mut running = pipeline(graph).start(RunOptions::default());
    let pushed = running.push(input(all.clone())).unwrap();
    let closed = running.close_windows().unwrap();
    assert!(!closed.sinks["out"].is_empty());
    assert_eq!(
        [pushed.sinks["out"].clone(), closed.sinks["out"].clone()].concat(),
        whole["out"]
    );
}

#[test]
fn inline_events_come_with_the_first_batch_only() {
    let mut running = pipeline(json!({"vertices": [
        {"type": "logs-values-source", "name": "v", "values": [{"id": "inline", "message": "x"}]},
        {"type": "logs-sync-sink", "name": "out"}],
        "edges": ["v -> out"]}))
    .start(RunOptions::default());
    assert_eq!(
        running.push(RunInput::default()).unwrap().sinks["out"].len(),
        1
    );
    assert!(running.push(RunInput::default()).unwrap().sinks["out"].is_empty());
    assert!(running.close_windows().unwrap().sinks["out"].is_empty());
}

#[test]
fn each_batch_has_the_limits_to_itself() {
    let options = RunOptions {
        max_events: 5,
        ..RunOptions::default()
    };
    let mut running = pipeline(json!({"vertices": [
        {"type": "logs-iceberg-table-source", "name": "in"},
        {"type": "logs-sync-sink", "name": "out"}],
        "edges": ["in -> out"]}))
    .start(options);
    for _ in 0..3 {
        let run = running.push(input(events(logins(5, 0)))).unwrap();
        assert_eq!(run.sinks["out"].len(), 5);
    }
    let over = running.push(input(events(logins(6, 0)))).unwrap_err();
    assert!(
        over.to_string().contains("more than 5 input events"),
        "{over}"
    );
}
