use super::*;
use serde_json::json;

fn stage(fields: Value) -> JsonStage {
    compile("json", fields.as_object().unwrap()).unwrap()
}

/// The event after the stage, as JSON text.
fn after(stage: &JsonStage, event: Value) -> String {
    let mut event = LogEvent::from_value(event).unwrap();
    stage.apply(&mut event);
    serde_json::to_string(&event).unwrap()
}

#[test]
fn the_public_example() {
    let s = stage(json!({}));
    assert_eq!(
        after(
            &s,
            json!({"message": "{\"msg\": \"Example log message\", \"@timestamp\": \"2007-12-03T10:15:30.00Z\", \"log\": {\"level\": \"INFO\"}}"})
        ),
        r#"{"message":"","attributes":{"msg":"Example log message","@timestamp":"2007-12-03T10:15:30.00Z","log":{"level":"INFO"}}}"#
    );
}

#[test]
fn the_message_merges_into_existing_attributes_and_may_be_kept() {
    let event = json!({"message": " {\"a\": {\"c\": 2}, \"n\": 1.50} ", "severity": 9,
        "attributes": {"a": {"b": 1}, "n": 0, "z": true}});
    assert_eq!(
        after(&stage(json!({})), event.clone()),
        r#"{"message":"","severity":9,"attributes":{"a":{"b":1,"c":2},"n":1.50,"z":true}}"#
    );
    let kept = after(&stage(json!({"preserveJsonMessageField": true})), event);
    assert!(
        kept.starts_with(r#"{"message":" {\"a\": {\"c\": 2}, \"n\": 1.50} ","#),
        "{kept}"
    );
    assert!(kept.ends_with(r#""attributes":{"a":{"b":1,"c":2},"n":1.50,"z":true}}"#));
}

#[test]
fn what_is_not_a_json_object_passes_unchanged() {
    let s = stage(json!({}));
    let deep = format!(
        "{}{}",
        "{\"a\":".repeat(200),
        "1".to_owned() + &"}".repeat(200)
    );
    for event in [
        json!({"message": "plain text"}),
        json!({"message": "[1, 2]"}),
        json!({"message": "42"}),
        json!({"message": "{\"unterminated\": "}),
        json!({"message": "{\"a\": 1} trailing"}),
        json!({"message": deep}),
        json!({"id": "no message"}),
        json!({"message": "", "attributes": {"msg": "not json", "log": "[1]"}}),
    ] {
        let text = serde_json::to_string(&event).unwrap();
        assert_eq!(after(&s, event), text);
    }
}

#[test]
fn nested_json_strings_are_decoded_into_the_root() {
    let s = stage(json!({}));
    // Double-serialized: the message's `log` holds JSON whose `msg` holds JSON again.
    let inner = json!({"msg": json!({"deep": true}).to_string(), "level": "warn"}).to_string();
    let message = json!({"log": inner, "keep": 1}).to_string();
    assert_eq!(
        after(&s, json!({"message": message})),
        r#"{"message":"","attributes":{"keep":1,"level":"warn","deep":true}}"#
    );
    // With no iterations the string stays.
    let none = stage(json!({"maxNestedJsonIterations": 0}));
    assert_eq!(
        after(&none, json!({"attributes": {"log": "{\"a\":1}"}})),
        r#"{"attributes":{"log":"{\"a\":1}"}}"#
    );
    // Attribute paths are segments: a key holding a dot is one segment.
    let dotted = stage(json!({"resolveNestedJsonFields": [["http.body"], ["req", "body"]]}));
    assert_eq!(
        after(
            &dotted,
            json!({"attributes": {"http.body": "{\"a\":1}", "req": {"body": "{\"b\":2}"}}})
        ),
        r#"{"attributes":{"req":{},"a":1,"b":2}}"#
    );
}

#[test]
fn iterations_are_bounded() {
    // Each level hides the next one in `msg`: two iterations decode two levels.
    let mut text = json!({"end": 1}).to_string();
    for _ in 0..4 {
        text = json!({ "msg": text }).to_string();
    }
    let s = stage(json!({"maxNestedJsonIterations": 2}));
    let out = after(&s, json!({"attributes": {"msg": text}}));
    let attributes = &serde_json::from_str::<Value>(&out).unwrap()["attributes"];
    let left = attributes["msg"].as_str().unwrap();
    assert!(left.contains("end"), "{out}");
    assert!(
        serde_json::from_str::<Value>(left).unwrap()["msg"].is_string(),
        "{out}"
    );
}

#[test]
fn depth_cuts_objects_into_text() {
    let message = json!({"a": {"b": {"c": {"d": 1}}, "list": [[1], {"x": 2}]}, "t": 1}).to_string();
    assert_eq!(
        after(&stage(json!({})), json!({"message": message.clone()})),
        r#"{"message":"","attributes":{"a":{"b":{"c":"{\"d\":1}"},"list":["[1]","{\"x\":2}"]},"t":1}}"#
    );
    assert_eq!(
        after(
            &stage(json!({"maxNestedDepthForFields": 1})),
            json!({"message": message})
        ),
        r#"{"message":"","attributes":{"a":"{\"b\":{\"c\":{\"d\":1}},\"list\":[[1],{\"x\":2}]}","t":1}}"#
    );
}

#[test]
fn lifted_fields_merge_into_their_object() {
    let s = stage(json!({"liftFieldNames": ["data", "extra"]}));
    let message = json!({"data": {"user": {"id": 1}, "extra": {"k": "v", "user": {"name": "n"}}},
        "user": {"id": 0, "role": "r"}, "extra": "text stays"})
    .to_string();
    // `data` is lifted: its `user` merges with the root's, its `extra` object replaces the
    // root's text and is lifted in turn.
    assert_eq!(
        after(&s, json!({"message": message})),
        r#"{"message":"","attributes":{"user":{"id":1,"role":"r","name":"n"},"k":"v"}}"#
    );
}

#[test]
fn bad_settings_name_the_field() {
    for (fields, piece) in [
        (
            json!({"maxNestedDepthForFields": -1}),
            "/maxNestedDepthForFields: must be an integer of at least 0",
        ),
        (
            json!({"resolveNestedJsonFields": ["message"]}),
            "/resolveNestedJsonFields/0: must be an array of strings",
        ),
        (
            json!({"preserveJsonMessageField": "yes"}),
            "/preserveJsonMessageField: must be a boolean",
        ),
    ] {
        let err = compile("json", fields.as_object().unwrap())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(piece) && err.contains("vertex json"),
            "{fields}: {err}"
        );
    }
}

#[test]
fn an_enormous_message_is_parsed_in_linear_time() {
    let fields: Map<String, Value> = (0..50_000).map(|i| (format!("k{i}"), json!(i))).collect();
    let message = serde_json::to_string(&fields).unwrap();
    let mut event = LogEvent::from_value(json!({ "message": message })).unwrap();
    let started = std::time::Instant::now();
    stage(json!({})).apply(&mut event);
    assert!(started.elapsed().as_secs() < 5);
    assert_eq!(attr_tree::read(&event).unwrap().unwrap().len(), 50_000);
}

#[test]
fn attributes_too_deep_to_read_are_left_as_they_are() {
    let deep = format!("{}1{}", "{\"a\":".repeat(300), "}".repeat(300));
    // Raw text is kept whatever its depth (an NDJSON line can hold such attributes); a tree
    // of it is refused past 128 levels.
    let raw = serde_json::value::RawValue::from_string(deep.clone()).unwrap();
    let mut event = LogEvent::from_value(json!({"message": "{\"b\": 1}"})).unwrap();
    event.attributes = Some(raw);
    stage(json!({})).apply(&mut event);
    assert_eq!(event.message.as_deref(), Some("{\"b\": 1}"));
    assert_eq!(event.attributes.unwrap().get(), deep);
}
