use super::*;
use serde_json::json;

fn obj(value: Value) -> Event {
    value.as_object().unwrap().clone()
}

#[test]
fn event_endpoint_batches() {
    // Concatenated with newlines, with nothing between, with spaces: Splunk's batch forms.
    let body = br#"{"time":1437522387.245,"host":"web-1","source":"app.log","sourcetype":"json","index":"main","event":"hello"}
{"time":"1437522388","event":{"message":"m","severity":"ERROR","user":{"id":7}},"fields":{"env":"prod","zone":["a","b"],"n":3}}{"event":{"msg":"short","level":"debug"}}   {"event":{"k":"v"}} {"event":42}"#;
    let events = decode_event(body).unwrap();
    assert_eq!(events.len(), 5);
    assert_eq!(
        Value::Object(events[0].clone()),
        json!({"eventTimestamp": 1437522387245i64, "message": "hello",
               "tags": {"host": ["web-1"], "source": ["app.log"], "sourcetype": ["json"], "index": ["main"]}})
    );
    assert_eq!(
        Value::Object(events[1].clone()),
        json!({"eventTimestamp": 1437522388000i64, "message": "m", "severity": 17,
               "tags": {"env": ["prod"], "zone": ["a", "b"], "n": ["3"]},
               "attributes": {"message": "m", "severity": "ERROR", "user": {"id": 7}}})
    );
    assert_eq!(events[2]["message"], "short");
    assert_eq!(events[2]["severity"], 5);
    assert_eq!(events[3]["message"], r#"{"k":"v"}"#);
    assert_eq!(events[3]["attributes"], json!({"k": "v"}));
    assert_eq!(events[4]["message"], "42");
}

#[test]
fn times() {
    assert_eq!(seconds_ms("1437522387.245"), Some(1437522387245));
    assert_eq!(seconds_ms("1437522387.2"), Some(1437522387200));
    assert_eq!(seconds_ms("1437522387.245999"), Some(1437522387245));
    assert_eq!(seconds_ms("1437522387."), Some(1437522387000));
    assert_eq!(seconds_ms("1.4375223872e9"), Some(1437522387200));
    assert_eq!(seconds_ms("-1"), None);
    assert_eq!(seconds_ms("NaN"), None);
    assert_eq!(seconds_ms("soon"), None);
    assert_eq!(seconds_ms("99999999999999999999"), None);
    let err = decode_event(br#"{"time":"soon","event":"x"}"#).unwrap_err();
    assert_eq!(err.code(), 6);
    assert!(
        err.to_string()
            .contains("`time` must be epoch seconds such as 1437522387.245, found soon"),
        "{err}"
    );
}

#[test]
fn hec_errors() {
    let err = decode_event(b"").unwrap_err();
    assert_eq!((err.status(), err.code(), err.text()), (400, 5, "No data"));
    assert_eq!(decode_event(b" \n ").unwrap_err(), HecError::NoData);

    let err = decode_event(br#"{"event":"a"}{"host":"h"}"#).unwrap_err();
    assert_eq!(
        err,
        HecError::EventRequired {
            event: 1,
            offset: 13
        }
    );
    assert_eq!((err.status(), err.code()), (400, 12));
    let body: Value = serde_json::from_slice(&err.body()).unwrap();
    assert_eq!(body["text"], "Event field is required");
    assert_eq!(body["invalid-event-number"], 1);
    assert!(
        body["detail"]
            .as_str()
            .unwrap()
            .contains("event 1 (byte 13) has no `event` field")
    );

    assert_eq!(
        decode_event(br#"{"event":""}"#).unwrap_err(),
        HecError::EventBlank {
            event: 0,
            offset: 0
        }
    );
    assert_eq!(decode_event(br#"{"event":null}"#).unwrap_err().code(), 13);

    let err = decode_event(br#"{"event":"a"} {"event":"b""#).unwrap_err();
    assert_eq!((err.code(), err.event_number()), (6, Some(1)));
    assert!(
        err.to_string()
            .contains("event 1 (from byte 13) is not valid JSON"),
        "{err}"
    );

    let err = decode_event(br#"[{"event":"a"}]"#).unwrap_err();
    assert!(
        err.to_string().contains("is an array, not an object"),
        "{err}"
    );

    let err = decode_event(br#"{"event":"a","fields":{"k":{"nested":1}}}"#).unwrap_err();
    assert_eq!((err.status(), err.code()), (400, 15));
    assert!(
        err.to_string().contains("fields.k of event 0 is an object"),
        "{err}"
    );
    assert_eq!(
        decode_event(br#"{"event":"a","fields":"x"}"#)
            .unwrap_err()
            .code(),
        15
    );
}

#[test]
fn fixed_answers() {
    assert_eq!(success_body(), br#"{"text":"Success","code":0}"#);
    for (err, status, code, text) in [
        (HecError::TokenRequired, 401, 2, "Token is required"),
        (
            HecError::InvalidAuthorization,
            401,
            3,
            "Invalid authorization",
        ),
        (HecError::InvalidToken, 403, 4, "Invalid token"),
        (HecError::NoData, 400, 5, "No data"),
        (HecError::ServerBusy, 503, 9, "Server is busy"),
        (
            HecError::InternalServerError,
            500,
            8,
            "Internal server error",
        ),
    ] {
        assert_eq!((err.status(), err.code(), err.text()), (status, code, text));
        let body: Value = serde_json::from_slice(&err.body()).unwrap();
        assert_eq!(body["text"], text);
        assert_eq!(body["code"], code);
        assert!(body.get("invalid-event-number").is_none());
    }
    let err = HecError::InvalidDataFormat {
        event: 3,
        detail: "d".into(),
    };
    let body: Value = serde_json::from_slice(&err.body()).unwrap();
    assert_eq!(
        body,
        json!({"text": "Invalid data format", "code": 6, "invalid-event-number": 3,
                            "detail": "Invalid data format at event 3: d"})
    );
}

#[test]
fn limits() {
    let small = Limits {
        max_events: 2,
        max_event_bytes: 30,
        max_total_bytes: 100,
    };
    let err = decode_event_with(br#"{"event":"a"}{"event":"b"}{"event":"c"}"#, &small).unwrap_err();
    assert_eq!(
        (err.status(), err.code(), err.event_number()),
        (413, 6, Some(2))
    );
    let err = decode_event_with(
        format!(r#"{{"event":"{}"}}"#, "x".repeat(30)).as_bytes(),
        &small,
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .contains("event 0 (byte 0) is 42 bytes, more than 30"),
        "{err}"
    );
    assert!(decode_event_with(&[b' '; 101], &small).is_err());
    let err = decode_raw_with(b"a\nb\nc\n", &RawMeta::default(), &small).unwrap_err();
    assert_eq!(err.event_number(), Some(2));
    let err = decode_raw_with(
        format!("ok\n{}\n", "x".repeat(31)).as_bytes(),
        &RawMeta::default(),
        &small,
    )
    .unwrap_err();
    assert!(
        err.to_string().contains("line 1 (byte 3) is 31 bytes"),
        "{err}"
    );
}

#[test]
fn raw_endpoint() {
    let meta = RawMeta {
        host: Some("h".into()),
        source: Some("s".into()),
        sourcetype: Some("st".into()),
        index: Some(String::new()),
        time: Some("1437522387.5".into()),
    };
    let events = decode_raw(b"\r\none\r\n\ntwo \xff\nthree", &meta).unwrap();
    assert_eq!(events.len(), 3);
    assert_eq!(
        Value::Object(events[0].clone()),
        json!({"eventTimestamp": 1437522387500i64, "message": "one",
               "tags": {"host": ["h"], "source": ["s"], "sourcetype": ["st"]}})
    );
    assert_eq!(events[1]["message"], "two \u{fffd}");
    assert_eq!(events[2]["message"], "three");
    assert_eq!(
        decode_raw(b"\n\r\n", &RawMeta::default()).unwrap_err(),
        HecError::NoData
    );
    let bad = RawMeta {
        time: Some("later".into()),
        ..RawMeta::default()
    };
    assert_eq!(decode_raw(b"x", &bad).unwrap_err().code(), 6);
    assert!(
        decode_raw(b"x", &RawMeta::default()).unwrap()[0]
            .get("eventTimestamp")
            .is_none()
    );
}

#[test]
fn encode_shapes() {
    let events = [
        obj(json!({"eventTimestamp": 5, "message": "plain"})),
        obj(
            json!({"message": "with severity", "severity": 18, "tags": {"host": ["h1", "h2"], "status": ["x"], "multi": ["a", "b"]}}),
        ),
        obj(json!({"message": "m", "attributes": {"k": 1}})),
        obj(json!({})),
        obj(json!({"message": "", "eventTimestamp": "2015-07-21T23:06:27.245Z"})),
    ];
    let text = String::from_utf8(encode(&events)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            r#"{"time":0.005,"event":"plain"}"#,
            r#"{"host":"h1","fields":{"status":"x","multi":["a","b"]},"event":{"message":"with severity","severity":"ERROR2"}}"#,
            r#"{"event":{"message":"m","k":1}}"#,
            r#"{"event":{}}"#,
            r#"{"time":1437519987.245,"event":{"message":""}}"#,
        ]
    );
    // Splunk accepts all of them: they decode.
    assert_eq!(decode_event(text.as_bytes()).unwrap().len(), 5);
}

#[test]
fn round_trip() {
    let body = br#"{"time":1437522387.245,"host":"web-1","source":"a","sourcetype":"b","index":"c","event":"hello","fields":{"env":"prod","zone":["a","b"]}}
{"event":{"message":"m","severity":"WARN","nested":{"deep":[1,2,{"x":null}]}}}
{"event":{"log":"from log","level":"info"}}
{"event":{"k":"v","n":1.25}}
{"event":[1,"two"]}"#;
    let events = decode_event(body).unwrap();
    let again = decode_event(&encode(&events)).unwrap();
    assert_eq!(again, events);
    // And events from elsewhere keep their message, severity, tags and timestamp.
    let other = vec![obj(
        json!({"eventTimestamp": 1700000000123i64, "message": "x", "severity": 13,
                                "tags": {"service": ["api"]}, "attributes": {"user": "u"}}),
    )];
    let back = decode_event(&encode(&other)).unwrap();
    assert_eq!(back[0]["message"], "x");
    assert_eq!(back[0]["severity"], 13);
    assert_eq!(back[0]["eventTimestamp"], 1700000000123i64);
    assert_eq!(back[0]["tags"], json!({"service": ["api"]}));
    assert_eq!(
        back[0]["attributes"],
        json!({"message": "x", "user": "u", "severity": "WARN"})
    );
}
