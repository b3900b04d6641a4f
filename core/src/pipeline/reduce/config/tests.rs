//! Tests of `reduce::config`.
use super::*;
use serde_json::json;

#[test]
fn durations_read_as_milliseconds() {
    for (text, ms) in [
        ("PT2M", Some(120_000)),
        ("PT120S", Some(120_000)),
        ("PT20.345S", Some(20_345)),
        ("PT1H30M", Some(5_400_000)),
        ("P1D", Some(86_400_000)),
        ("P1DT1S", Some(86_401_000)),
        ("PT0S", None),
        ("PT", None),
        ("2m", None),
        ("PT1M1H", None),
        ("PT-5S", None),
    ] {
        assert_eq!(duration_ms(text), ms, "{text}");
    }
    assert_eq!(human_duration(120_000), "2m");
    assert_eq!(human_duration(5_430_000), "1h30m30s");
    assert_eq!(human_duration(1500), "1.5s");
}

fn error(fields: serde_json::Value) -> String {
    match read("r", fields.as_object().unwrap()) {
        Ok(_) => panic!("accepted {fields}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn every_mistake_names_its_field() {
    for (fields, wanted) in [
        (
            json!({"similarityThreshold": 10}),
            "/similarityThreshold: must be a number from 20 to 100",
        ),
        (
            json!({"reductionTimeWindow": "2 minutes"}),
            "`reductionTimeWindow` must be a positive ISO 8601 duration",
        ),
        (
            json!({"dedupThreshold": 1}),
            "/dedupThreshold: must be an integer of at least 2",
        ),
        (
            json!({"enabledMasks": ["number", "nope"]}),
            "`enabledMasks[1]` names `nope`",
        ),
        (
            json!({"masks": [["Bad", "x"]], "enabledMasks": ["Bad"]}),
            "`masks[0]` mask name `Bad` must be 1 to 50 lowercase letters",
        ),
        (
            json!({"masks": [["order", "(?=x)"]], "enabledMasks": ["order"]}),
            "lookahead",
        ),
        (
            json!({"masks": [["a", "x"], ["a", "y"]], "enabledMasks": []}),
            "repeats the mask name `a`",
        ),
        (
            json!({"delimiters": [" ", "ab"]}),
            "`delimiters[1]` must be one character",
        ),
        (json!({"delimiters": [" ", " "]}), "`delimiters[1]` repeats"),
        (
            json!({"attributeMergeStrategyEntries": [
            {"attributePath": ["a"], "strategy": {"type": "sum"}},
            {"attributePath": ["a"], "strategy": {"type": "max"}}]}),
            "duplicate attribute paths",
        ),
        (
            json!({"logReducerExceptions": [{"type": "datadog-query", "query": "a:("}]}),
            "vertex r",
        ),
        (
            json!({"samplingConfig": {"type": "window-based-logarithmic-sampling", "logarithmBase": 1}}),
            "/samplingConfig/logarithmBase: must be an integer of at least 2",
        ),
        (
            json!({"similarityThreshold": "high"}),
            "/similarityThreshold: must be a number",
        ),
    ] {
        let e = error(fields.clone());
        assert!(e.contains(wanted), "{fields}: {e}");
    }
}

#[test]
fn the_defaults_are_the_documented_ones() {
    let s = read("r", &Map::new()).unwrap();
    assert_eq!(s.similarity, 0.7);
    assert_eq!(s.window_ms, 120_000);
    assert_eq!(s.dedup, 4);
    assert_eq!(s.log_base, None);
    assert!(s.repeat_prefix);
    let names: Vec<&str> = s.masks.masks.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["ipport", "timestamp", "uuid", "number"]);
    assert_eq!(s.default_strategies, [Strategy::Exact]);
}
