use super::*;
use serde_json::json;

fn stage(fields: Value) -> KeyValueStage {
    compile("kv", fields.as_object().unwrap()).unwrap()
}

/// The attributes after the stage, as JSON text (`None`: the event has none).
fn attributes(stage: &KeyValueStage, event: Value) -> Option<String> {
    let mut event = LogEvent::from_value(event).unwrap();
    stage.apply(&mut event);
    event.attributes.map(|a| a.get().to_owned())
}

#[test]
fn pairs_quotes_and_what_is_skipped() {
    let s = stage(json!({}));
    let got = attributes(
        &s,
        json!({"message": r#"a=1 b="two words" c='it''s' d="say \"hi\"" e= f="" g=null h="null" =x lone k = v"#}),
    );
    assert_eq!(
        got.as_deref(),
        Some(r#"{"a":"1","b":"two words","c":"it''s","d":"say \"hi\"","h":"null"}"#)
    );
}

#[test]
fn repeated_keys_keep_the_last_value_in_the_first_place() {
    let s = stage(json!({}));
    assert_eq!(
        attributes(&s, json!({"message": "k=1 j=2 k=3"})).as_deref(),
        Some(r#"{"k":"3","j":"2"}"#)
    );
}

#[test]
fn pairs_replace_attributes_of_their_name_and_keep_the_others() {
    let s = stage(json!({}));
    let event = json!({"message": "status=500 http.method=GET", "attributes": {"status": 200, "http": {"method": "POST"}}});
    assert_eq!(
        attributes(&s, event).as_deref(),
        Some(r#"{"status":"500","http":{"method":"POST"},"http.method":"GET"}"#)
    );
}

#[test]
fn other_separators() {
    let s = stage(json!({"fieldSeparator": ", ", "valueSeparator": ":"}));
    assert_eq!(
        attributes(
            &s,
            json!({"message": "user: ann, role: \"admin, ops\", url: http://x"})
        )
        .as_deref(),
        Some(r#"{"user":"ann","role":"admin, ops","url":"http://x"}"#)
    );
    let s = stage(json!({"fieldSeparator": "|", "valueSeparator": "=>"}));
    assert_eq!(
        attributes(&s, json!({"message": "a=>1|b=>|c=>é"})).as_deref(),
        Some(r#"{"a":"1","c":"é"}"#)
    );
}

#[test]
fn no_pair_no_message_and_an_unterminated_quote_leave_the_event() {
    let s = stage(json!({}));
    assert_eq!(attributes(&s, json!({"message": "just words"})), None);
    assert_eq!(attributes(&s, json!({"id": "x"})), None);
    assert_eq!(
        attributes(&s, json!({"message": "k=\"open a=1 b=2"})).as_deref(),
        Some(r#"{"k":"\"open a=1 b=2"}"#)
    );
}

#[test]
fn many_pairs_are_cut_at_the_limit() {
    let s = stage(json!({}));
    let message: Vec<String> = (0..MAX_PAIRS + 10).map(|i| format!("k{i}=v")).collect();
    let mut event = LogEvent::from_value(json!({"message": message.join(" ")})).unwrap();
    assert!(s.apply(&mut event));
    let map = attr_tree::read(&event).unwrap().unwrap();
    assert_eq!(map.len(), MAX_PAIRS);
    assert!(map.contains_key(&format!("k{}", MAX_PAIRS - 1)));
    let mut small = LogEvent::from_value(json!({"message": "a=1"})).unwrap();
    assert!(!s.apply(&mut small));
}

#[test]
fn an_enormous_message_is_split_in_linear_time() {
    let s = stage(json!({}));
    let message = format!("k=\"{}\" {}", "x ".repeat(2_000_000), "y".repeat(1_000_000));
    let mut event = LogEvent::from_value(json!({ "message": message })).unwrap();
    let started = std::time::Instant::now();
    s.apply(&mut event);
    assert!(started.elapsed().as_secs() < 5);
    assert_eq!(
        attr_tree::read(&event).unwrap().unwrap()["k"]
            .as_str()
            .unwrap()
            .len(),
        4_000_000
    );
}

#[test]
fn bad_separators_name_the_field() {
    for (fields, piece) in [
        (
            json!({"fieldSeparator": ""}),
            "/fieldSeparator: must not be empty",
        ),
        (
            json!({"valueSeparator": 1}),
            "/valueSeparator: must be a string",
        ),
        (
            json!({"fieldSeparator": "=", "valueSeparator": "="}),
            "/valueSeparator: \"=\" and fieldSeparator \"=\" must differ",
        ),
        (
            json!({"fieldSeparator": " ", "valueSeparator": " = "}),
            "must differ",
        ),
        (
            json!({"valueSeparator": "\""}),
            "/valueSeparator: must not contain a quote",
        ),
    ] {
        let err = compile("kv", fields.as_object().unwrap())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(piece) && err.contains("vertex kv"),
            "{fields}: {err}"
        );
    }
}
