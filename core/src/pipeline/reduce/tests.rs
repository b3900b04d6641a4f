//! The reducer on events: windows, samples, summaries, exceptions, partitions, sampling.

use serde_json::{Value, json};

use super::{Mode, Reducer};
use jobgraph_model::LogEvent;

fn events(items: Value) -> Vec<LogEvent> {
    items
        .as_array()
        .unwrap()
        .iter()
        .map(|v| LogEvent::from_value(v.clone()).unwrap())
        .collect()
}

/// What a reducer gives for a whole input: its output and the patterns found.
struct Reduced {
    events: Vec<LogEvent>,
    patterns: Vec<super::PatternReport>,
}

/// The reducer of `fields` on the whole of `input`, its last window closed at the end.
fn run(fields: Value, mode: Mode, input: Vec<LogEvent>) -> Reduced {
    let r = Reducer::compile("r", fields.as_object().unwrap(), mode).unwrap();
    let mut state = r.start(input.len());
    state.push_all("r", input, &mut || Ok(())).unwrap();
    state.close_window();
    Reduced {
        patterns: state.patterns(),
        events: state.take_out(),
    }
}

fn kind(e: &LogEvent) -> &str {
    e.tags["grepr.messagetype"][0].as_str()
}

fn attrs(e: &LogEvent) -> Value {
    serde_json::from_str(e.attributes.as_ref().unwrap().get()).unwrap()
}

/// `n` events "user <i> logged in from 10.0.0.<i>" at `start_ms + i` ms.
fn logins(n: usize, start_ms: i64) -> Vec<Value> {
    (0..n)
        .map(|i| {
            json!({"id": format!("e{i}"), "eventTimestamp": start_ms + i as i64,
                   "message": format!("user {i} logged in from 10.0.0.{}", i % 250),
                   "tags": {"service": ["web"]}, "attributes": {"bytes": i}})
        })
        .collect()
}

#[test]
fn the_first_dedup_threshold_events_are_samples_and_the_rest_one_summary() {
    let out = run(json!({}), Mode::Reduce, events(Value::Array(logins(10, 0))));
    let kinds: Vec<&str> = out.events.iter().map(kind).collect();
    assert_eq!(kinds, ["sample", "sample", "sample", "sample", "summary"]);
    let summary = &out.events[4];
    assert_eq!(
        summary.message.as_deref(),
        Some("[6 times in 2m] user <number> logged in from <ipport>")
    );
    let a = attrs(summary);
    assert_eq!(a["grepr"]["repeatCount"], 6);
    assert_eq!(a["grepr"]["firstTimeTimestamp"], 4);
    assert_eq!(a["grepr"]["lastTimeTimestamp"], 9);
    assert_eq!(a["grepr"]["receivedTimestamp"], 120_000);
    assert_eq!(a["bytes"], "*", "exact match by default");
    assert_eq!(summary.tags["service"], ["web"]);
    let id = a["grepr"]["patternId"].as_str().unwrap();
    assert_eq!(attrs(&out.events[0])["grepr"]["patternId"], id);
    assert_eq!(attrs(&out.events[0])["grepr"]["repeatCount"], 1);
    assert_eq!(out.patterns.len(), 1);
    assert_eq!(out.patterns[0].count, 10);
    assert_eq!(
        out.patterns[0].pattern,
        "user <number> logged in from <ipport>"
    );
    assert_eq!(out.patterns[0].samples.len(), 3);
}

#[test]
fn windows_are_cut_by_event_time_and_a_later_window_closes_the_open_one() {
    let mut input = logins(6, 0);
    input.extend(logins(6, 120_000));
    // An event of the first window arriving late counts in the open (second) window.
    input.push(
        json!({"id": "late", "eventTimestamp": 5, "message": "user 99 logged in from 10.0.0.1"}),
    );
    let out = run(
        json!({"reductionTimeWindow": "PT2M"}),
        Mode::Reduce,
        events(Value::Array(input)),
    );
    let kinds: Vec<&str> = out.events.iter().map(kind).collect();
    assert_eq!(
        kinds,
        [
            "sample", "sample", "sample", "sample", "summary", "sample", "sample", "sample",
            "sample", "summary"
        ]
    );
    assert_eq!(attrs(&out.events[4])["grepr"]["repeatCount"], 2);
    assert_eq!(attrs(&out.events[9])["grepr"]["repeatCount"], 3);
    assert_eq!(out.events[9].received_timestamp, Some(json!(240_000)));
}

#[test]
fn empty_messages_pass_through_and_exceptions_are_forwarded_unchanged() {
    let mut input = logins(6, 0);
    input.insert(
        2,
        json!({"id": "blank", "message": "  ", "eventTimestamp": 1}),
    );
    input.insert(3, json!({"id": "vip", "message": "user 7 logged in from 10.0.0.7", "tags": {"level": ["error"]}}));
    let out = run(
        json!({"logReducerExceptions": [{"type": "datadog-query", "query": "level:error"}]}),
        Mode::Reduce,
        events(Value::Array(input)),
    );
    let by_id: Vec<(String, &str)> = out.events.iter().map(|e| (e.label(0), kind(e))).collect();
    assert_eq!(by_id[2], ("blank".to_owned(), "passthrough"));
    assert_eq!(by_id[3], ("vip".to_owned(), "exception"));
    assert!(
        out.events[3].attributes.is_none(),
        "an exception is forwarded unchanged"
    );
}

#[test]
fn logarithmic_sampling_sends_one_more_sample_at_each_power() {
    let out = run(
        json!({"dedupThreshold": 4, "samplingConfig": {"type": "window-based-logarithmic-sampling", "logarithmBase": 2}}),
        Mode::Reduce,
        events(Value::Array(logins(130, 0))),
    );
    let samples: Vec<String> = out
        .events
        .iter()
        .filter(|e| kind(e) == "sample")
        .map(|e| e.label(0))
        .collect();
    // The 1st–4th, then the 32nd, 64th and 128th (e31, e63, e127).
    assert_eq!(samples, ["e0", "e1", "e2", "e3", "e31", "e63", "e127"]);
    let summary = out.events.last().unwrap();
    assert_eq!(attrs(summary)["grepr"]["repeatCount"], 130 - 7);
}

#[test]
fn partitions_keep_patterns_apart() {
    let mut input = logins(5, 0);
    for e in &mut input[..2] {
        e["tags"]["service"] = json!(["api"]);
    }
    let out = run(
        json!({"partitionByTags": ["service"]}),
        Mode::Reduce,
        events(Value::Array(input)),
    );
    assert_eq!(out.patterns.len(), 2);
    assert_eq!(out.patterns[0].partition, "service=web");
    assert_ne!(out.patterns[0].id, out.patterns[1].id);
    assert_eq!(out.events.iter().filter(|e| kind(e) == "sample").count(), 5);
}

#[test]
fn merge_strategies_shape_the_summary_and_preserve_sends_early() {
    let out = run(
        json!({
            "dedupThreshold": 2,
            "repeatCountInSummaryMessageEnabled": false,
            "attributeMergeStrategyEntries": [
                {"attributePath": ["bytes"], "strategy": {"type": "composite", "strategies": [{"type": "sum"}, {"type": "max"}]}}
            ],
            "defaultAttributesMergeStrategy": {"type": "preserve", "limit": 3}
        }),
        Mode::Reduce,
        events(Value::Array(
            (0..9)
                .map(|i| json!({"eventTimestamp": i, "message": "disk full", "attributes": {"bytes": i, "host": format!("h{i}")}}))
                .collect(),
        )),
    );
    let summaries: Vec<Value> = out
        .events
        .iter()
        .filter(|e| kind(e) == "summary")
        .map(attrs)
        .collect();
    // 7 held events, at most 3 hosts per summary: 3 + 3 + 1.
    assert_eq!(summaries.len(), 3);
    assert_eq!(summaries[0]["host"], json!(["h2", "h3", "h4"]));
    assert_eq!(summaries[0]["bytes"], json!(9.0));
    assert_eq!(summaries[0]["bytes_sum"], json!(9.0));
    assert_eq!(summaries[0]["bytes_max"], json!(4.0));
    assert_eq!(summaries[2]["host"], json!(["h8"]));
    let message = out
        .events
        .iter()
        .find(|e| kind(e) == "summary")
        .unwrap()
        .message
        .clone();
    assert_eq!(message.as_deref(), Some("disk full"));
    let ids: Vec<String> = out
        .events
        .iter()
        .filter(|e| kind(e) == "summary")
        .map(|e| e.label(0))
        .collect();
    assert!(
        ids[0].ends_with("-0-0") && ids[1].ends_with("-0-1"),
        "{ids:?}"
    );
}

#[test]
fn the_pattern_matcher_forwards_every_event_tagged() {
    let out = run(json!({}), Mode::Match, events(Value::Array(logins(6, 0))));
    assert_eq!(out.events.len(), 6);
    let id = &out.patterns[0].id;
    for e in &out.events {
        assert_eq!(&e.tags["grepr.patternId"], std::slice::from_ref(id));
        assert!(!e.tags.contains_key("grepr.messagetype"));
        assert!(e.message().starts_with("user "));
    }
}

#[test]
fn attributes_only_builds_patterns_from_keys_and_values() {
    let input = events(json!([
        {"message": "a", "attributes": {"request": {"path": "/a", "tenant_id": "t1"}}},
        {"message": "b", "attributes": {"request": {"path": "/a", "tenant_id": "t2"}}},
        {"message": "c", "attributes": {"request": {"path": "/a", "extra": 1, "tenant_id": "t1"}}}
    ]));
    let out = run(
        json!({"tokenizationInput": "ATTRIBUTES_ONLY", "attributeTokenization": "KEYS_ONLY",
               "excludedAttributePrefixes": [["request", "tenant_id"]], "dedupThreshold": 2}),
        Mode::Match,
        input,
    );
    // The extra key changes the shape: two patterns.
    assert_eq!(out.patterns.len(), 2);
    assert_eq!(
        out.events[0].tags["grepr.patternId"],
        out.events[1].tags["grepr.patternId"]
    );
    assert_ne!(
        out.events[0].tags["grepr.patternId"],
        out.events[2].tags["grepr.patternId"]
    );
}

#[test]
fn the_same_events_give_the_same_output() {
    let input = events(Value::Array(logins(300, 0)));
    let a = run(json!({}), Mode::Reduce, input.clone());
    let b = run(json!({}), Mode::Reduce, input);
    let text = |r: &Reduced| serde_json::to_string(&r.events).unwrap();
    assert_eq!(text(&a), text(&b));
    assert_eq!(a.patterns, b.patterns);
}
