use super::proto::{
    AnyValue, ArrayValue, ExportLogsServiceRequest, InstrumentationScope, KeyValue, KeyValueList,
    LogRecord, Resource, ResourceLogs, ScopeLogs,
};
use super::*;
use serde_json::json;

/// The OTLP specification's example (`examples/logs.json` of opentelemetry-proto), as the
/// SDKs' JSON exporters write it.
const SPEC_EXAMPLE: &str = r#"{"resourceLogs":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"my.service"}}]},
  "scopeLogs":[{"scope":{"name":"my.library","version":"1.0.0","attributes":[{"key":"my.scope.attribute","value":{"stringValue":"some scope attribute"}}]},
  "logRecords":[{"timeUnixNano":"1544712660300000000","observedTimeUnixNano":"1544712660300000000","severityNumber":10,
  "severityText":"Information","traceId":"5B8EFFF798038103D269B633813FC60C","spanId":"EEE19B7EC3C1B174",
  "body":{"stringValue":"Example log record"},
  "attributes":[{"key":"string.attribute","value":{"stringValue":"some string"}},{"key":"boolean.attribute","value":{"boolValue":true}},
  {"key":"int.attribute","value":{"intValue":"10"}},{"key":"double.attribute","value":{"doubleValue":637.704}},
  {"key":"array.attribute","value":{"arrayValue":{"values":[{"stringValue":"many"},{"stringValue":"values"}]}}},
  {"key":"map.attribute","value":{"kvlistValue":{"values":[{"key":"some.map.key","value":{"stringValue":"some value"}}]}}}]}]}]}]}"#;

fn spec_event() -> Value {
    json!({
        "eventTimestamp": 1544712660300i64,
        "message": "Example log record",
        "severity": 10,
        "tags": {"service.name": ["my.service"], "service": ["my.service"], "status": ["Information"]},
        "attributes": {
            "string.attribute": "some string",
            "boolean.attribute": true,
            "int.attribute": 10,
            "double.attribute": 637.704,
            "array.attribute": ["many", "values"],
            "map.attribute": {"some.map.key": "some value"},
            "trace_id": "5b8efff798038103d269b633813fc60c",
            "span_id": "eee19b7ec3c1b174",
            "otel.scope.name": "my.library",
            "otel.scope.version": "1.0.0",
        },
    })
}

fn s(text: &str) -> Option<AnyValue> {
    Some(AnyValue {
        value: Some(Any::StringValue(text.into())),
    })
}

fn kv(key: &str, value: Option<AnyValue>) -> KeyValue {
    KeyValue {
        key: key.into(),
        value,
    }
}

/// The specification's example built as protobuf messages.
fn spec_protobuf() -> Vec<u8> {
    let record = LogRecord {
        time_unix_nano: 1544712660300000000,
        observed_time_unix_nano: 1544712660300000000,
        severity_number: 10,
        severity_text: "Information".into(),
        trace_id: vec![
            0x5b, 0x8e, 0xff, 0xf7, 0x98, 0x03, 0x81, 0x03, 0xd2, 0x69, 0xb6, 0x33, 0x81, 0x3f,
            0xc6, 0x0c,
        ],
        span_id: vec![0xee, 0xe1, 0x9b, 0x7e, 0xc3, 0xc1, 0xb1, 0x74],
        body: s("Example log record"),
        attributes: vec![
            kv("string.attribute", s("some string")),
            kv(
                "boolean.attribute",
                Some(AnyValue {
                    value: Some(Any::BoolValue(true)),
                }),
            ),
            kv(
                "int.attribute",
                Some(AnyValue {
                    value: Some(Any::IntValue(10)),
                }),
            ),
            kv(
                "double.attribute",
                Some(AnyValue {
                    value: Some(Any::DoubleValue(637.704)),
                }),
            ),
            kv(
                "array.attribute",
                Some(AnyValue {
                    value: Some(Any::ArrayValue(ArrayValue {
                        values: vec![s("many").unwrap(), s("values").unwrap()],
                    })),
                }),
            ),
            kv(
                "map.attribute",
                Some(AnyValue {
                    value: Some(Any::KvlistValue(KeyValueList {
                        values: vec![kv("some.map.key", s("some value"))],
                    })),
                }),
            ),
        ],
        ..LogRecord::default()
    };
    ExportLogsServiceRequest {
        resource_logs: vec![ResourceLogs {
            resource: Some(Resource {
                attributes: vec![kv("service.name", s("my.service"))],
                dropped_attributes_count: 0,
            }),
            scope_logs: vec![ScopeLogs {
                scope: Some(InstrumentationScope {
                    name: "my.library".into(),
                    version: "1.0.0".into(),
                    attributes: vec![kv("my.scope.attribute", s("some scope attribute"))],
                    dropped_attributes_count: 0,
                }),
                log_records: vec![record],
                schema_url: String::new(),
            }],
            schema_url: "https://opentelemetry.io/schemas/1.21.0".into(),
        }],
    }
    .encode_to_vec()
}

#[test]
fn spec_example_json_and_protobuf() {
    let from_json = decode(SPEC_EXAMPLE.as_bytes(), Encoding::Json).unwrap();
    assert_eq!(Value::Object(from_json[0].clone()), spec_event());
    let from_protobuf = decode(&spec_protobuf(), Encoding::Protobuf).unwrap();
    assert_eq!(from_protobuf, from_json);
}

#[test]
fn protobuf_by_hand() {
    // Written from the .proto field numbers, not with our messages: ExportLogsServiceRequest {
    // resource_logs (1) { scope_logs (2) { log_records (2) { time_unix_nano (1, fixed64) = 2 ms,
    // severity_number (2) = 13, body (5) { string_value (1) = "hi" }, flags (8, fixed32) = 1 }}}}
    let record: &[u8] = &[
        0x09, 0x80, 0x84, 0x1e, 0, 0, 0, 0, 0, // 2_000_000 ns
        0x10, 13, 0x2a, 4, 0x0a, 2, b'h', b'i', 0x45, 1, 0, 0, 0,
    ];
    let mut scope = vec![0x12, record.len() as u8];
    scope.extend_from_slice(record);
    let mut resource = vec![0x12, scope.len() as u8];
    resource.extend(scope);
    let mut body = vec![0x0a, resource.len() as u8];
    body.extend(resource);
    let events = decode(&body, Encoding::Protobuf).unwrap();
    assert_eq!(
        Value::Object(events[0].clone()),
        json!({"eventTimestamp": 2, "message": "hi", "severity": 13, "attributes": {"trace_flags": 1}})
    );
    // Unknown fields (a future field 99, varint) are skipped.
    let mut future = body.clone();
    future.extend([0x98, 0x06, 1]);
    assert_eq!(decode(&future, Encoding::Protobuf).unwrap(), events);
    assert_eq!(
        decode(b"", Encoding::Protobuf).unwrap(),
        Vec::<Event>::new()
    );
}

#[test]
fn json_quirks() {
    // Numbers for 64-bit integers, snake_case names, nulls, unknown fields, the enum's name,
    // an empty trace id, the observed time when the time is 0.
    let body = r#"{"resource_logs":[{"resource":null,"scopeLogs":[{"logRecords":[
        {"time_unix_nano":0,"observedTimeUnixNano":1700000000999999999,"severityNumber":"SEVERITY_NUMBER_WARN",
         "traceId":"","future":{"x":1},"body":{"intValue":7},
         "attributes":[{"key":"d","value":{"doubleValue":"NaN"}},{"key":"b","value":{"bytesValue":"aGk="}},
                       {"key":"e","value":{}},{"key":"i","value":{"int_value":-3}}]}]}]}]}"#;
    let events = decode(body.as_bytes(), Encoding::Json).unwrap();
    assert_eq!(
        Value::Object(events[0].clone()),
        json!({
            "eventTimestamp": 1700000000999i64,
            "message": "7",
            "severity": 13,
            "attributes": {"d": "NaN", "b": "aGk=", "e": null, "i": -3, "body": 7},
        })
    );
    // Severity from the text when the number is unspecified; resource values as tag text.
    let body = r#"{"resourceLogs":[{"resource":{"attributes":[
        {"key":"host.name","value":{"stringValue":"h1"}},{"key":"pid","value":{"intValue":"42"}},
        {"key":"ok","value":{"boolValue":false}},{"key":"zones","value":{"arrayValue":{"values":[{"stringValue":"a"},{"intValue":"1"}]}}},
        {"key":"kv","value":{"kvlistValue":{"values":[{"key":"k","value":{"stringValue":"v"}}]}}}]},
        "scopeLogs":[{"logRecords":[{"severityText":"ERROR","body":{"kvlistValue":{"values":[{"key":"a","value":{"boolValue":true}}]}},"eventName":"login","flags":0}]}]}]}"#;
    let event = &decode(body.as_bytes(), Encoding::Json).unwrap()[0];
    assert_eq!(event["severity"], 17);
    assert_eq!(
        event["tags"],
        json!({"host.name": ["h1"], "pid": ["42"], "ok": ["false"], "zones": ["a", "1"], "kv": [r#"{"k":"v"}"#],
               "host": ["h1"], "status": ["ERROR"]})
    );
    assert_eq!(event["message"], r#"{"a":true}"#);
    assert_eq!(
        event["attributes"],
        json!({"body": {"a": true}, "event.name": "login"})
    );
    assert_eq!(decode(b"{}", Encoding::Json).unwrap(), Vec::<Event>::new());
}

#[test]
fn json_errors_name_the_pointer() {
    let cases: &[(&str, &str)] = &[
        (
            r#"[]"#,
            "the body is an array, expected an object (an ExportLogsServiceRequest)",
        ),
        (
            r#"{"resourceLogs":{}}"#,
            "JSON pointer /resourceLogs is an object, expected an array",
        ),
        (
            r#"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{},{"traceId":"W47/95gDgQPSabYzgT/GDA=="}]}]}]}"#,
            "JSON pointer /resourceLogs/0/scopeLogs/0/logRecords/1/traceId is the string \"W47/95gDgQPSabYzgT/GDA==\", expected 32 hexadecimal digits (a 16-byte trace id; OTLP JSON writes ids in hex, not base64)",
        ),
        (
            r#"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"spanId":"abc"}]}]}]}"#,
            "JSON pointer /resourceLogs/0/scopeLogs/0/logRecords/0/spanId is the string \"abc\", expected 16 hexadecimal digits",
        ),
        (
            r#"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"timeUnixNano":"soon"}]}]}]}"#,
            "JSON pointer /resourceLogs/0/scopeLogs/0/logRecords/0/timeUnixNano is the string \"soon\", expected an unsigned 64-bit integer",
        ),
        (
            r#"{"resourceLogs":[{"resource":{"attributes":[{"key":"a/b","value":{"intValue":1.5}}]}}]}"#,
            "JSON pointer /resourceLogs/0/resource/attributes/0/value/intValue is the number 1.5, expected a 64-bit integer",
        ),
        (
            r#"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"severityNumber":"LOUD"}]}]}]}"#,
            "expected a severity number",
        ),
        (
            r#"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"flags":4294967296}]}]}]}"#,
            "/flags is the number 4294967296, expected a 32-bit",
        ),
    ];
    for (body, expected) in cases {
        let err = decode(body.as_bytes(), Encoding::Json).unwrap_err();
        assert!(
            err.to_string().starts_with(expected) || err.to_string().contains(expected),
            "{err}\nexpected: {expected}"
        );
        assert_eq!(err.status(), 400);
    }
    let err = decode(b"{\"resourceLogs\":[", Encoding::Json).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("the body is not valid JSON: EOF while parsing"),
        "{err}"
    );
}

#[test]
fn protobuf_errors_name_the_byte() {
    // resource_logs declared 10 bytes long, 2 given.
    let err = decode(&[0x0a, 10, 0x12, 0], Encoding::Protobuf).unwrap_err();
    assert_eq!(
        err,
        OtlpError::Protobuf {
            offset: 0,
            what: "the message ends inside a field".into()
        }
    );
    assert!(
        err.to_string()
            .contains("send OTLP/HTTP protobuf, or OTLP JSON with Content-Type: application/json")
    );
    // resource_logs as a varint.
    let err = decode(&[0x08, 1], Encoding::Protobuf).unwrap_err();
    assert!(
        err.to_string()
            .contains("resourceLogs (field 1) is not length-delimited"),
        "{err}"
    );
    // A record whose body string is not UTF-8, at byte 6.
    let err = decode(
        &[0x0a, 10, 0x12, 8, 0x12, 6, 0x2a, 4, 0x0a, 2, 0xff, 0xfe],
        Encoding::Protobuf,
    )
    .unwrap_err();
    let OtlpError::Protobuf { offset, what } = &err else {
        panic!("{err}")
    };
    assert_eq!(*offset, 6);
    assert!(
        what.starts_with("resourceLogs[0].scopeLogs[0].logRecords[0]: "),
        "{what}"
    );
    // JSON sent as protobuf.
    assert!(decode(SPEC_EXAMPLE.as_bytes(), Encoding::Protobuf).is_err());
    // A group (wire type 3).
    assert!(
        decode(&[0x0b], Encoding::Protobuf)
            .unwrap_err()
            .to_string()
            .contains("wire type 3")
    );
}

#[test]
fn limits() {
    // 200,000 empty records: refused at the limit without decoding them all.
    let records: Vec<u8> = [0x12, 0].repeat(200_000);
    let mut scope = vec![0x12];
    prost::encoding::encode_varint(records.len() as u64, &mut scope);
    scope.extend(records);
    let mut body = vec![0x0a];
    prost::encoding::encode_varint(scope.len() as u64, &mut body);
    body.extend(scope);
    let err = decode(&body, Encoding::Protobuf).unwrap_err();
    assert_eq!(err, OtlpError::TooManyRecords { limit: 100_000 });
    assert_eq!(err.status(), 413);

    let small = Limits {
        max_events: 10,
        max_event_bytes: 20,
        max_total_bytes: 100,
    };
    let big = format!(
        r#"{{"resourceLogs":[{{"scopeLogs":[{{"logRecords":[{{"body":{{"stringValue":"{}"}}}}]}}]}}]}}"#,
        "x".repeat(30)
    );
    let err = decode_with(big.as_bytes(), Encoding::Json, &small).unwrap_err();
    assert!(
        err.to_string().starts_with("the log record at JSON pointer /resourceLogs/0/scopeLogs/0/logRecords/0 is 57 bytes, more than the 20"),
        "{err}"
    );
    // A large resource counts once per record.
    let resource = format!(
        r#"{{"attributes":[{{"key":"k","value":{{"stringValue":"{}"}}}}]}}"#,
        "r".repeat(30)
    );
    let many = format!(
        r#"{{"resourceLogs":[{{"resource":{resource},"scopeLogs":[{{"logRecords":[{{}},{{}},{{}}]}}]}}]}}"#
    );
    let err = decode_with(many.as_bytes(), Encoding::Json, &small).unwrap_err();
    assert!(
        matches!(&err, OtlpError::TooLarge { at, limit: 100 } if at.ends_with("/logRecords/1")),
        "{err}"
    );
}

#[test]
fn deep_nesting_is_refused() {
    // AnyValue arrays nested 150 deep: prost's recursion limit (100).
    let mut value = AnyValue {
        value: Some(Any::StringValue("x".into())),
    };
    for _ in 0..150 {
        value = AnyValue {
            value: Some(Any::ArrayValue(ArrayValue {
                values: vec![value],
            })),
        };
    }
    let request = ExportLogsServiceRequest {
        resource_logs: vec![ResourceLogs {
            scope_logs: vec![ScopeLogs {
                log_records: vec![LogRecord {
                    body: Some(value),
                    ..LogRecord::default()
                }],
                ..ScopeLogs::default()
            }],
            ..ResourceLogs::default()
        }],
    };
    let err = decode(&request.encode_to_vec(), Encoding::Protobuf).unwrap_err();
    assert!(err.to_string().contains("recursion limit"), "{err}");
    // The same in JSON: serde_json's recursion limit (128).
    let json = format!(
        r#"{{"resourceLogs":[{{"scopeLogs":[{{"logRecords":[{{"body":{}{}}}]}}]}}]}}"#,
        r#"{"arrayValue":{"values":["#.repeat(100),
        "]}}".repeat(100)
    );
    assert!(matches!(
        decode(json.as_bytes(), Encoding::Json),
        Err(OtlpError::Json(_))
    ));
}

#[test]
fn answers() {
    assert_eq!(success_body(Encoding::Json, 0, ""), b"{}");
    assert_eq!(success_body(Encoding::Protobuf, 0, ""), b"");
    let partial = success_body(Encoding::Protobuf, 3, "no");
    let decoded = proto::ExportLogsServiceResponse::decode(partial.as_slice()).unwrap();
    assert_eq!(
        decoded.partial_success,
        Some(proto::ExportLogsPartialSuccess {
            rejected_log_records: 3,
            error_message: "no".into()
        })
    );
    let err = OtlpError::TooManyRecords { limit: 5 };
    let status = proto::Status::decode(err.body(Encoding::Protobuf).as_slice()).unwrap();
    assert_eq!(status.code, 3);
    assert_eq!(
        status.message,
        "the request has more than 5 log records; send at most 5 per request"
    );
    let body: Value = serde_json::from_slice(&err.body(Encoding::Json)).unwrap();
    assert_eq!(body, json!({"code": 3, "message": status.message}));
    assert_eq!(Encoding::from_content_type(None), None);
    assert_eq!(
        Encoding::from_content_type(Some("application/protobuf")),
        Some(Encoding::Protobuf)
    );
    assert_eq!(Encoding::Json.content_type(), "application/json");
}

#[test]
fn encode_groups_and_round_trips() {
    let events: Vec<Event> = [
        spec_event(),
        json!({"eventTimestamp": 5, "receivedTimestamp": 9, "message": "{\"a\":[1,2.5]}", "severity": 21,
               "tags": {"service.name": ["my.service"], "service": ["my.service"], "status": ["FATAL"]},
               "attributes": {"body": {"a": [1, 2.5]}, "trace_id": "not hex", "span_id": "eee19b7ec3c1b174", "trace_flags": 1, "nil": null}}),
        json!({"message": "other resource", "tags": {"host.name": ["h"], "host": ["extra", "h"], "multi": ["a", "b"]}}),
        json!({"message": "same resource, other scope", "tags": {"service.name": ["my.service"], "service": ["my.service"]},
               "attributes": {"otel.scope.name": "other"}}),
    ]
    .into_iter()
    .map(|v| v.as_object().unwrap().clone())
    .collect();
    let body = encode(&events);
    let request = ExportLogsServiceRequest::decode(body.as_slice()).unwrap();
    assert_eq!(request.resource_logs.len(), 2);
    assert_eq!(request.resource_logs[0].scope_logs.len(), 3);
    let second = &request.resource_logs[0].scope_logs[1].log_records[0];
    assert_eq!(second.observed_time_unix_nano, 9_000_000);
    assert_eq!(
        second.span_id,
        vec![0xee, 0xe1, 0x9b, 0x7e, 0xc3, 0xc1, 0xb1, 0x74]
    );
    assert!(second.trace_id.is_empty());
    assert_eq!(second.flags, 1);
    let resource = request.resource_logs[1].resource.as_ref().unwrap();
    assert_eq!(resource.attributes[1], kv("host", s("extra")));

    let back = decode(&body, Encoding::Protobuf).unwrap();
    let mut expected = events.clone();
    expected[1].remove("receivedTimestamp");
    // Grouped by resource, then scope: the event of the second resource comes last.
    let third = expected.remove(2);
    expected.push(third);
    assert_eq!(back, expected);
}

#[test]
fn encode_without_service_name() {
    let event =
        json!({"message": "m", "tags": {"service": ["api"], "host": ["h"], "env": ["prod"]}});
    let body = encode(&[event.as_object().unwrap().clone()]);
    let request = ExportLogsServiceRequest::decode(body.as_slice()).unwrap();
    let resource = request.resource_logs[0].resource.as_ref().unwrap();
    assert_eq!(
        resource.attributes,
        vec![
            kv("service.name", s("api")),
            kv("host.name", s("h")),
            kv("env", s("prod"))
        ]
    );
}
