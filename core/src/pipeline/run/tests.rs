use super::*;
use crate::pipeline::{StreamOptions, read_events, run_ndjson};
use serde_json::{Value, json};

fn pipeline(graph: Value) -> Pipeline {
    Pipeline::compile(&serde_json::from_value(graph).unwrap()).unwrap()
}

fn events() -> Vec<LogEvent> {
    read_events(
        r#"{"id": "e1", "tags": {"level": ["error"]}}
{"id": "e2", "tags": {"level": ["info"]}}
{"id": "e3", "tags": {"level": ["error"]}}
{"id": "e4", "tags": {"level": ["debug"]}}"#,
    )
    .unwrap()
}

fn run(p: &Pipeline) -> Run {
    p.run(
        RunInput {
            events: events(),
            ..Default::default()
        },
        &RunOptions::default(),
    )
    .unwrap()
}

fn ids(events: &[LogEvent]) -> Vec<String> {
    events.iter().map(|e| e.label(0)).collect()
}

fn vertex<'r>(run: &'r Run, name: &str) -> &'r VertexRun {
    run.vertices.iter().find(|v| v.name == name).unwrap()
}

fn branch_graph(edges: Value) -> Value {
    json!({"vertices": [
        {"type": "logs-iceberg-table-source", "name": "src"},
        {"type": "logs-branch", "name": "b", "predicate": {"type": "datadog-query", "query": "level:error"}},
        {"type": "logs-sync-sink", "name": "errors"},
        {"type": "logs-sync-sink", "name": "rest"}],
        "edges": edges})
}

#[test]
fn a_branch_sends_matches_by_output_and_the_rest_by_else() {
    let p = pipeline(branch_graph(json!([
        "src -> b",
        "b -> errors",
        "b:else -> rest"
    ])));
    let r = run(&p);
    assert_eq!(ids(&r.sinks["errors"]), ["e1", "e3"]);
    assert_eq!(ids(&r.sinks["rest"]), ["e2", "e4"]);
    let b = vertex(&r, "b");
    assert_eq!((b.events_in, b.events_out, b.events_dropped), (4, 2, 0));
    assert_eq!(
        b.events_by_port,
        IndexMap::from([("output".to_owned(), 2), ("else".to_owned(), 2)])
    );
    assert!(b.notes.is_empty(), "{:?}", b.notes);
    assert_eq!(r.edges[2].events, 2);
    // The record as the package and the service write it.
    let text = serde_json::to_value(b).unwrap();
    assert_eq!(text["eventsByPort"], json!({"output": 2, "else": 2}));
    assert_eq!(text["eventsOut"], json!(2));
}

#[test]
fn else_without_an_edge_still_counts_and_other_ports_carry_nothing() {
    let p = pipeline(branch_graph(json!([
        "src -> b",
        "b -> errors",
        "b:other -> rest"
    ])));
    let r = run(&p);
    assert_eq!(ids(&r.sinks["errors"]), ["e1", "e3"]);
    assert!(r.sinks["rest"].is_empty());
    let b = vertex(&r, "b");
    assert_eq!(b.events_by_port["else"], 2);
    assert!(!b.events_by_port.contains_key("other"));
    assert!(
        b.notes
            .iter()
            .any(|n| n.starts_with("port other is not simulated")),
        "{:?}",
        b.notes
    );
}

#[test]
fn both_ports_into_one_vertex_and_fan_out_of_else() {
    let p = pipeline(json!({"vertices": [
        {"type": "logs-iceberg-table-source", "name": "src"},
        {"type": "logs-branch", "name": "b", "query": "level:error"},
        {"type": "logs-sync-sink", "name": "all"},
        {"type": "logs-sync-sink", "name": "rest"}],
        "edges": ["src -> b", "b:else -> all", "b:output -> all", "b:else -> rest"]}));
    let r = run(&p);
    // Fan-in in `edges` order: the else events first.
    assert_eq!(ids(&r.sinks["all"]), ["e2", "e4", "e1", "e3"]);
    assert_eq!(ids(&r.sinks["rest"]), ["e2", "e4"]);
    assert!(!p.streamable());
}

#[test]
fn a_vertex_not_simulated_lists_the_ports_its_edges_name() {
    let p = pipeline(json!({"vertices": [
        {"type": "logs-iceberg-table-source", "name": "src"},
        {"type": "geoip-parser", "name": "g"},
        {"type": "logs-sync-sink", "name": "a"},
        {"type": "logs-sync-sink", "name": "b"}],
        "edges": ["src -> g", "g:side -> a", "g -> b"]}));
    let r = run(&p);
    assert_eq!(r.sinks["a"].len(), 4);
    assert_eq!(r.sinks["b"].len(), 4);
    assert_eq!(
        vertex(&r, "g").events_by_port,
        IndexMap::from([("output".to_owned(), 4), ("side".to_owned(), 4)])
    );
    assert_eq!(
        vertex(&r, "a").events_by_port,
        IndexMap::from([("output".to_owned(), 4)])
    );
}

#[test]
fn agent_sources_emit_the_run_events_and_vendor_sinks_collect() {
    let p = pipeline(json!({"vertices": [
        {"type": "datadog-log-agent-source", "name": "dd", "integrationId": "i"},
        {"type": "otlp-log-agent-source", "name": "otlp", "integrationId": "j"},
        {"type": "logs-iceberg-table-source", "name": "lake"},
        {"type": "datadog-log-sink", "name": "to-dd", "integrationId": "i", "additionalTags": ["a:b"]},
        {"type": "logs-iceberg-table-sink", "name": "to-lake", "datasetId": "d"}],
        "edges": ["dd -> to-dd", "otlp -> to-lake", "lake -> to-lake"]}));
    let r = run(&p);
    assert_eq!(ids(&r.sinks["to-dd"]), ["e1", "e2", "e3", "e4"]);
    assert_eq!(r.sinks["to-lake"].len(), 8);
    // As they reached it: a vendor sink adds nothing.
    assert_eq!(r.sinks["to-dd"], events());
    assert!(r.vertices.iter().all(|v| v.simulated && v.notes.is_empty()));
    // The service still cannot feed them.
    assert_eq!(
        p.unrun_sources(),
        [
            ("dd", "datadog-log-agent-source"),
            ("otlp", "otlp-log-agent-source")
        ]
    );
}

#[test]
fn a_sampler_makes_the_pipeline_run_whole() {
    let sampled = pipeline(json!({"vertices": [
        {"type": "logs-iceberg-table-source", "name": "src"},
        {"type": "logs-event-sampler", "name": "s", "maxAllowedRate": 1, "maxBurstLimit": 1},
        {"type": "logs-sync-sink", "name": "out"}],
        "edges": ["src -> s", "s -> out"]}));
    assert!(!sampled.streamable());
    let r = run(&sampled);
    // No times: the burst of one passes, the rest find the bucket empty.
    assert_eq!(ids(&r.sinks["out"]), ["e1"]);
    let s = vertex(&r, "s");
    assert_eq!((s.events_dropped, s.dropped.len()), (3, 3));
    assert_eq!(s.dropped[0].dropped_by.as_deref(), Some("s"));
    let split = pipeline(branch_graph(json!([
        "src -> b",
        "b -> errors",
        "b:else -> rest"
    ])));
    assert!(split.streamable());
}

#[test]
fn streamed_runs_sum_the_ports() {
    let p = pipeline(branch_graph(json!([
        "src -> b",
        "b -> errors",
        "b:else -> rest"
    ])));
    let text: String = (0..3000)
        .map(|i| {
            let level = if i % 3 == 0 { "error" } else { "info" };
            format!("{{\"id\":\"{i}\",\"tags\":{{\"level\":[\"{level}\"]}}}}\n")
        })
        .collect();
    let options = StreamOptions {
        chunk_bytes: 1 << 10,
        threads: 2,
        ..StreamOptions::default()
    };
    let streamed = run_ndjson(&p, text.as_bytes(), "rest", &options, |_| {}).unwrap();
    assert_eq!(streamed.events_out, 2000);
    let b = streamed.vertices.iter().find(|v| v.name == "b").unwrap();
    assert_eq!(b.events_by_port["output"], 1000);
    assert_eq!(b.events_by_port["else"], 2000);
}

#[test]
fn bad_settings_fail_the_compile_naming_vertex_and_field() {
    for (vertex, piece) in [
        (
            json!({"type": "logs-branch", "name": "v"}),
            "vertex v: `query` (or `predicate`) is missing: give the events that leave by `output`",
        ),
        (
            json!({"type": "logs-event-sampler", "name": "v", "maxBurstLimit": "many"}),
            "vertex v: /maxBurstLimit: must be an integer of at least 1, found a string",
        ),
        (
            json!({"type": "json-log-processor", "name": "v", "liftFieldNames": "data"}),
            "vertex v: /liftFieldNames: must be an array of strings, found a string",
        ),
        (
            json!({"type": "keyvalue-processor", "name": "v", "fieldSeparator": ""}),
            "vertex v: /fieldSeparator: must not be empty",
        ),
        (
            json!({"type": "log-attributes-remapper", "name": "v", "hostReservedAttributePaths": ["host"]}),
            "vertex v: /hostReservedAttributePaths/0: must be an array of strings, found a string",
        ),
    ] {
        let graph = json!({"vertices": [vertex], "edges": []});
        let err = Pipeline::compile(&serde_json::from_value(graph).unwrap())
            .unwrap_err()
            .to_string();
        assert!(err.contains(piece), "{err}");
    }
}
