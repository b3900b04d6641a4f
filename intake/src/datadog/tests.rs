use super::*;
use serde_json::json;

fn one(body: &str) -> Value {
    let events = decode(body.as_bytes()).unwrap();
    assert_eq!(events.len(), 1);
    Value::Object(events.into_iter().next().unwrap())
}

fn obj(value: Value) -> Event {
    value.as_object().unwrap().clone()
}

#[test]
fn agent_payload() {
    // What the Datadog Agent sends (one array, several logs).
    let body = r#"[
      {"message":"GET /health 200","status":"info","timestamp":1700000000123,"hostname":"web-1",
       "service":"api","ddsource":"nginx","ddtags":"env:prod,version:1.2, team:core ,filename:/var/log/a.log"},
      {"message":"boom","status":"error","timestamp":1700000000456,"hostname":"web-1","service":"api",
       "ddsource":"python","ddtags":""}
    ]"#;
    let events = decode(body.as_bytes()).unwrap();
    assert_eq!(
        Value::Object(events[0].clone()),
        json!({
            "eventTimestamp": 1700000000123i64,
            "message": "GET /health 200",
            "severity": 9,
            "tags": {"status": ["info"], "host": ["web-1"], "service": ["api"], "source": ["nginx"],
                     "env": ["prod"], "version": ["1.2"], "team": ["core"], "filename": ["/var/log/a.log"]},
        })
    );
    assert_eq!(events[1]["severity"], 17);
    assert_eq!(events[1]["tags"]["source"], json!(["python"]));
}

#[test]
fn fluent_bit_and_api_client_payloads() {
    // Fluent Bit's datadog output: the record's fields at top level, `ddtags` from `dd_tags`.
    let fb = one(
        r#"[{"timestamp":1700000000000,"ddsource":"fluent","service":"svc","hostname":"h",
             "ddtags":"project:fluent-bit","log":"raw line","kubernetes":{"pod_name":"p-1"}}]"#,
    );
    assert_eq!(
        fb["attributes"],
        json!({"log": "raw line", "kubernetes": {"pod_name": "p-1"}})
    );
    assert_eq!(fb["tags"]["project"], json!(["fluent-bit"]));
    assert!(fb.get("message").is_none());
    // datadog-api-client's HTTPLogItem.
    let api = one(
        r#"{"ddsource":"nginx","ddtags":"env:staging,version:5.1","hostname":"i-012345678","message":"2019-11-19T14:37:58,995 INFO [process.name][20081] Hello World","service":"payment"}"#,
    );
    assert_eq!(api["tags"]["host"], json!(["i-012345678"]));
    assert_eq!(api["tags"]["env"], json!(["staging"]));
}

#[test]
fn ddtags_rules() {
    let e = one(r#"{"ddtags":"a:b:c, bare ,,k:1,k:2,k:1,:x","message":"m"}"#);
    assert_eq!(
        e["tags"],
        json!({"a": ["b:c"], "bare": [""], "k": ["1", "2"], "": ["x"]})
    );
    let e = one(r#"{"ddtags":["env:prod","team:a,team:b"]}"#);
    assert_eq!(e["tags"], json!({"env": ["prod"], "team": ["a", "b"]}));
    let e = one(r#"{"ddtags":"service:x","service":"y"}"#);
    assert_eq!(e["tags"]["service"], json!(["x", "y"]));
}

#[test]
fn status_words_and_numbers() {
    for (status, severity) in [
        (json!("emergency"), Some(21)),
        (json!("EMERG"), Some(21)),
        (json!("alert"), Some(19)),
        (json!("Critical"), Some(18)),
        (json!("crit"), Some(18)),
        (json!("err"), Some(17)),
        (json!("warning"), Some(13)),
        (json!("notice"), Some(10)),
        (json!("debug"), Some(5)),
        (json!("trace"), Some(1)),
        (json!("ok"), Some(9)),
        (json!(3), Some(17)),
        (json!("6"), Some(9)),
        (json!(9), None),
        (json!("verbose-ish"), None),
    ] {
        let e = one(&json!({"status": status}).to_string());
        assert_eq!(
            e.get("severity").and_then(Value::as_u64),
            severity.map(|s| s as u64),
            "{status}"
        );
        assert_eq!(e["tags"]["status"], json!([text_of(&status)]));
    }
}

#[test]
fn host_and_timestamp_choices() {
    let e = one(r#"{"host":"h1","hostname":"h2"}"#);
    assert_eq!(e["tags"]["host"], json!(["h2"]));
    assert_eq!(e["attributes"], json!({"host": "h1"}));
    let e = one(r#"{"host":"h1"}"#);
    assert_eq!(e["tags"]["host"], json!(["h1"]));
    let e = one(r#"{"date":"2024-01-02T03:04:05.678Z","@timestamp":5}"#);
    assert_eq!(e["eventTimestamp"], 5);
    assert_eq!(e["attributes"], json!({"date": "2024-01-02T03:04:05.678Z"}));
    let e = one(r#"{"date":"2024-01-02T03:04:05.678+01:00"}"#);
    assert_eq!(e["eventTimestamp"], 1_704_161_045_678i64);
    let e = one(r#"{"timestamp":"1700000000000"}"#);
    assert_eq!(e["eventTimestamp"], 1_700_000_000_000i64);
    let e = one(r#"{"timestamp":"last tuesday"}"#);
    assert_eq!(e["attributes"], json!({"timestamp": "last tuesday"}));
    let e = one(r#"{"timestamp":-5}"#);
    assert_eq!(e["attributes"], json!({"timestamp": -5}));
}

#[test]
fn messages_nulls_and_empties() {
    let e = one(r#"{"message":{"a":1},"service":"","ddsource":null}"#);
    assert_eq!(e["message"], r#"{"a":1}"#);
    assert!(e.get("tags").is_none());
    assert_eq!(e["attributes"], json!({"ddsource": null}));
    let e = one(r#"{"message":null,"n":1.50}"#);
    assert!(e.get("message").is_none());
    // Numbers keep their text (the workspace's serde_json has arbitrary_precision).
    assert_eq!(e["attributes"]["n"].to_string(), "1.50");
    assert_eq!(decode(b"[]").unwrap(), Vec::<Event>::new());
}

#[test]
fn errors_say_what_and_where() {
    let err = decode(b"[{\"message\":").unwrap_err();
    assert_eq!(err.status(), 400);
    assert!(
        err.to_string()
            .starts_with("the body is not valid JSON: EOF while parsing"),
        "{err}"
    );
    let err = decode(b"\"hello\"").unwrap_err();
    assert_eq!(
        err.to_string(),
        "the body is a string; send a JSON array of log objects (or one log object)"
    );
    let err = decode(b"  ").unwrap_err();
    assert!(matches!(err, DatadogError::NotLogs { found: "empty" }));
    let err = decode(br#"[{"message":"a"}, 7]"#).unwrap_err();
    assert_eq!(
        err,
        DatadogError::NotAnObject {
            index: 1,
            offset: 18,
            found: "a number"
        }
    );
    assert!(
        err.to_string()
            .starts_with("log 1 (JSON pointer /1, byte 18) is a number, not an object")
    );
    let err = decode(br#"[{}] x"#).unwrap_err();
    assert!(err.to_string().contains("trailing characters"), "{err}");
    let deep = format!("[{}{}]", "[".repeat(200), "]".repeat(200));
    assert_eq!(decode(deep.as_bytes()).unwrap_err().status(), 400);
}

#[test]
fn limits() {
    let body = format!("[{}]", vec!["{}"; 1001].join(","));
    let err = decode(body.as_bytes()).unwrap_err();
    assert_eq!(err, DatadogError::TooManyLogs { limit: 1000 });
    assert_eq!(err.status(), 413);
    let body = format!("[{}]", vec!["{}"; 1000].join(","));
    assert_eq!(decode(body.as_bytes()).unwrap().len(), 1000);

    let small = Limits {
        max_events: 10,
        max_event_bytes: 40,
        max_total_bytes: 200,
    };
    assert!(matches!(
        decode_with(&[b' '; 201], &small),
        Err(DatadogError::PayloadTooLarge {
            size: 201,
            limit: 200
        })
    ));
    assert!(matches!(
        decode_with(
            b"{}",
            &Limits {
                max_events: 0,
                ..small
            }
        ),
        Err(DatadogError::TooManyLogs { .. })
    ));
    // A long message is truncated so that the log fits, at a character boundary.
    let text = format!(r#"{{"message":"{}","k":"v"}}"#, "é".repeat(30));
    let e = decode_with(text.as_bytes(), &small).unwrap();
    // 82 bytes, 42 too many: 60 bytes of message keep 60 - 42 - 15 = 3, down to a boundary.
    assert_eq!(e[0]["message"], format!("é{TRUNCATION_MARKER}"));
    assert_eq!(e[0]["attributes"], json!({"k": "v"}));
    // Too large because of its attributes: refused.
    let text = format!(r#"[{{}},{{"message":"m","k":"{}"}}]"#, "v".repeat(40));
    let err = decode_with(text.as_bytes(), &small).unwrap_err();
    assert_eq!(
        err,
        DatadogError::LogTooLarge {
            index: 1,
            offset: 4,
            size: 62,
            limit: 40
        }
    );
    assert_eq!(err.status(), 413);
}

#[test]
fn answers() {
    assert_eq!(success_body(), b"{}");
    let err = DatadogError::TooManyLogs { limit: 1000 };
    let body: Value = serde_json::from_slice(&err.body()).unwrap();
    assert_eq!(
        body,
        json!({"errors": [{"status": "413", "title": "Payload Too Large",
                           "detail": "the body has more than 1000 logs; send at most 1000 logs per request"}]})
    );
    let body: Value = serde_json::from_slice(&error_body(400, "bad \"quote\"")).unwrap();
    assert_eq!(body["errors"][0]["title"], "Bad Request");
    assert_eq!(body["errors"][0]["detail"], "bad \"quote\"");
}

#[test]
fn encode_fields() {
    let event = obj(json!({
        "id": "e1",
        "eventTimestamp": "2024-01-02T03:04:05.678Z",
        "message": "m",
        "severity": 18,
        "tags": {"source": ["s"], "service": ["a", "b"], "host": [""], "env": ["prod", "eu"],
                 "odd:key": ["x,y"], "bare": [""]},
        "attributes": {"hostname": "clash", "status": "clash", "user": {"id": 1}, "host": "kept"},
    }));
    let body: Value = serde_json::from_slice(&encode(&[event])).unwrap();
    assert_eq!(
        body,
        json!([{
            "message": "m",
            "ddsource": "s",
            "service": "a",
            "status": "critical",
            "ddtags": "service:b,host,env:prod,env:eu,odd_key:x_y,bare",
            "timestamp": 1_704_164_645_678i64,
            "hostname": "clash",
            "user": {"id": 1},
            "host": "kept",
        }])
    );
    assert_eq!(encode(&[]), b"[]");
}

#[test]
fn round_trip() {
    let events = vec![
        obj(
            json!({"eventTimestamp": 1700000000000i64, "message": "a", "severity": 17,
                   "tags": {"status": ["error"], "host": ["h"], "env": ["prod", "eu"], "beta": [""]},
                   "attributes": {"user": {"id": 7, "roles": ["x"]}, "msg": "other", "n": 1.5}}),
        ),
        obj(json!({"message": "no tags", "severity": 10})),
        obj(json!({"severity": 19, "tags": {"service": ["s1", "s2"], "source": ["src"]}})),
        obj(json!({"attributes": {"date": "kept as attribute"}, "eventTimestamp": 5})),
        obj(json!({})),
    ];
    let back = decode(&encode(&events)).unwrap();
    for (mut event, back) in events.into_iter().zip(back) {
        // Decoding keeps the status word as a tag.
        if let Some(s) = event.get("severity").and_then(Value::as_u64) {
            let status = severity::datadog_status(s as u8).unwrap();
            let tags = event.entry("tags").or_insert_with(|| json!({}));
            tags.as_object_mut()
                .unwrap()
                .entry("status")
                .or_insert_with(|| json!([status]));
        }
        assert_eq!(back, event);
    }
}
