//! `reducer`: a `log-reducer` (and `pattern-matcher`) with fuzzed settings on fuzzed events.
//!
//! Input: the settings as JSON (a `log-reducer` vertex's fields), then `\0`, then events, one
//! per line: a JSON object line is an event, any other line a message (its time the line's
//! number, in seconds, so windows close).

use jobgraph_core::JobGraph;
use jobgraph_core::pipeline::{LogEvent, Pipeline, RunInput, RunOptions};
use serde_json::{Map, Value, json};

/// Lines read at most (keeps one input fast).
const MAX_LINES: usize = 256;

fn events(text: &str) -> Vec<LogEvent> {
    text.lines()
        .take(MAX_LINES)
        .enumerate()
        .map(|(i, line)| {
            serde_json::from_str::<Value>(line)
                .ok()
                .filter(Value::is_object)
                .and_then(|v| LogEvent::from_value(v).ok())
                .unwrap_or_else(|| {
                    let mut e = LogEvent::default();
                    e.message = Some(line.to_owned());
                    e.event_timestamp = Some(json!(i as i64 * 1000));
                    e
                })
        })
        .collect()
}

fn graph(kind: &str, settings: &Map<String, Value>) -> Option<JobGraph> {
    let mut vertex = settings.clone();
    vertex.insert("type".into(), json!(kind));
    vertex.insert("name".into(), json!("r"));
    serde_json::from_value(json!({
        "vertices": [{"type": "logs-iceberg-table-source", "name": "in"}, Value::Object(vertex),
                     {"type": "logs-sync-sink", "name": "out"}],
        "edges": ["in -> r", "r -> out"]}))
    .ok()
}

/// `reducer`: settings either fail to compile with an error naming the vertex, or the run
/// (which may stop only at a limit) gives every output a `grepr.messagetype` of the four kinds;
/// samples and summaries account for every event that is neither an exception nor a
/// passthrough; a second run gives the same bytes; the pattern matcher forwards every event.
pub fn reducer(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (settings, lines) = text.split_once('\0').unwrap_or((text, ""));
    let Ok(Value::Object(settings)) = serde_json::from_str::<Value>(settings) else {
        return;
    };
    let input = events(lines);
    let options = RunOptions {
        timeout_ms: 5_000,
        ..RunOptions::default()
    };
    for kind in ["log-reducer", "pattern-matcher"] {
        let Some(graph) = graph(kind, &settings) else {
            return;
        };
        let pipeline = match Pipeline::compile(&graph) {
            Ok(p) => p,
            Err(e) => {
                assert!(e.to_string().contains("vertex r"), "{e}");
                return;
            }
        };
        let run = |events: Vec<LogEvent>| {
            pipeline.run(
                RunInput {
                    events,
                    ..Default::default()
                },
                &options,
            )
        };
        let first = match run(input.clone()) {
            Ok(r) => r,
            Err(e) => {
                let text = e.to_string();
                assert!(
                    text.contains("Run limit exceeded") || text.contains("took longer than"),
                    "{text}"
                );
                return;
            }
        };
        let out = &first.sinks["out"];
        if kind == "pattern-matcher" {
            assert_eq!(out.len(), input.len());
        } else {
            let mut accounted = 0u64;
            let mut other = 0usize;
            for e in out {
                let kinds = e
                    .tags
                    .get("grepr.messagetype")
                    .expect("every output is typed");
                let kind = kinds.last().map(String::as_str);
                let attributes: Value = e
                    .attributes
                    .as_ref()
                    .and_then(|a| serde_json::from_str(a.get()).ok())
                    .unwrap_or(Value::Null);
                match kind {
                    Some("sample" | "summary") => {
                        accounted += attributes["grepr"]["repeatCount"]
                            .as_u64()
                            .expect("a repeat count");
                    }
                    Some("passthrough" | "exception") => other += 1,
                    k => panic!("unknown message type {k:?}"),
                }
            }
            assert_eq!(
                accounted as usize + other,
                input.len(),
                "every event accounted for"
            );
        }
        if let Ok(second) = run(input.clone()) {
            let bytes = |r: &jobgraph_core::pipeline::Run| serde_json::to_string(&r.sinks).unwrap();
            assert_eq!(bytes(&first), bytes(&second), "deterministic");
        }
    }
}
