use super::*;
use serde_json::json;

fn remapper(fields: Value) -> Remapper {
    compile("remap", fields.as_object().unwrap()).unwrap()
}

/// The event after the remapper, as a JSON value.
fn after(r: &Remapper, event: Value) -> Value {
    let mut event = LogEvent::from_value(event).unwrap();
    r.apply(&mut event);
    event.to_value()
}

#[test]
fn the_public_example_with_the_defaults() {
    let event = json!({
        "id": "ABCDEF", "eventTimestamp": 1765481731051_i64, "message": "", "tags": {},
        "attributes": {
            "syslog": {"severity": "10", "appname": "test name"},
            "status": "5", "msg": "message 1",
            "timestamp": {"ms_since_epoch": 1765481730000_i64}, "eventTime": " "}});
    let out = after(&remapper(json!({})), event);
    assert_eq!(
        serde_json::to_string(&out).unwrap(),
        serde_json::to_string(&json!({
            "id": "ABCDEF", "eventTimestamp": 1765481731051_i64, "message": "message 1",
            "severity": 5, "tags": {"service": ["test name"]},
            "attributes": {
                "syslog": {"severity": "10", "appname": "test name"},
                "status": "5",
                "timestamp": {"ms_since_epoch": 1765481730000_i64}, "eventTime": " ",
                "greprMeta": {"messageAttributePath": "msg"}}}))
        .unwrap()
    );
}

#[test]
fn a_message_that_is_there_is_kept() {
    let r = remapper(json!({}));
    let out = after(
        &r,
        json!({"message": "hello", "attributes": {"msg": "other"}}),
    );
    assert_eq!(
        out,
        json!({"message": "hello", "attributes": {"msg": "other"}})
    );
    // Absent counts as empty; a nested source leaves its (empty) parent.
    let r = remapper(json!({"messageReservedAttributes": ["log.msg"]}));
    let out = after(&r, json!({"attributes": {"log": {"msg": 42}}}));
    assert_eq!(
        out,
        json!({"message": "42", "attributes": {"log": {}, "greprMeta": {"messageAttributePath": "log.msg"}}})
    );
}

#[test]
fn timestamps_first_usable_in_order() {
    let r = remapper(json!({}));
    let out = after(
        &r,
        json!({"eventTimestamp": 1, "attributes": {"timestamp": "not a time", "date": "2024-01-02T03:04:05.678Z", "@timestamp": ""}}),
    );
    assert_eq!(out["eventTimestamp"], json!(1704164645678_i64));
    // Preserved by default.
    assert_eq!(out["attributes"]["date"], json!("2024-01-02T03:04:05.678Z"));
    let r =
        remapper(json!({"timestampPreserveSource": false, "timestampReservedAttributes": ["t"]}));
    let out = after(&r, json!({"attributes": {"t": 1700000000000_i64, "u": 1}}));
    assert_eq!(
        out,
        json!({"eventTimestamp": 1700000000000_i64, "attributes": {"u": 1}})
    );
}

#[test]
fn status_becomes_severity() {
    let r = remapper(json!({}));
    for (attributes, severity) in [
        (json!({"level": "WARN"}), Some(13)),
        (
            json!({"log": {"level": "error"}, "level": "debug"}),
            Some(17),
        ),
        (json!({"status": "loud", "severity": 21}), Some(21)),
        (json!({"status": 99}), None),
        (json!({"level": {"name": "x"}}), None),
    ] {
        let out = after(&r, json!({ "attributes": attributes }));
        assert_eq!(
            out.get("severity").and_then(Value::as_u64),
            severity,
            "{attributes}"
        );
    }
}

#[test]
fn host_service_and_trace_id_set_their_tags() {
    let r = remapper(json!({}));
    let out = after(
        &r,
        json!({"tags": {"host": ["agent-host"], "env": ["prod"]}, "attributes": {
            "hostname": "web-1", "_resource": {"host.name": "ignored, hostname comes first"},
            "kubernetes": {"labels": {"app.kubernetes.io/name": "shop"}},
            "dd": {"trace_id": 1234567890123456789_u64}}}),
    );
    assert_eq!(
        out["tags"],
        json!({"host": ["web-1"], "env": ["prod"], "service": ["shop"], "trace_id": ["1234567890123456789"]})
    );
    // Sources are kept by default.
    assert_eq!(out["attributes"]["hostname"], json!("web-1"));
    let r = remapper(json!({"hostPreserveSource": false}));
    let out = after(&r, json!({"attributes": {"host": "h", "x": 1}}));
    assert_eq!(
        out,
        json!({"tags": {"host": ["h"]}, "attributes": {"x": 1}})
    );
}

#[test]
fn tag_mappings_add_values_and_remove_their_sources() {
    let r = remapper(json!({
        "tagMappings": {"team": ["owner.team", "teams"]},
        "tagMappingPaths": {"team": [["x.y"]], "zone": [["geo", "zone"]]}}));
    let out = after(
        &r,
        json!({"tags": {"team": ["core"]}, "attributes": {
            "owner": {"team": "core"}, "teams": ["a", 7, {"no": 1}, "b"], "x.y": "c",
            "geo": {"zone": "eu"}, "keep": true}}),
    );
    assert_eq!(
        out["tags"],
        json!({"team": ["core", "a", "7", "b", "c"], "zone": ["eu"]})
    );
    assert_eq!(
        out["attributes"],
        json!({"owner": {}, "geo": {}, "keep": true})
    );
}

#[test]
fn tag_maps_add_their_entries() {
    let r = remapper(
        json!({"tagMappingsLocations": ["labels"], "tagMappingsLocationPaths": [["meta", "tags"]]}),
    );
    let out = after(
        &r,
        json!({"attributes": {"labels": {"env": "prod", "team": ["a", "b"]}, "meta": {"tags": {"env": "eu"}}, "labelsx": 1}}),
    );
    assert_eq!(
        out["tags"],
        json!({"env": ["prod", "eu"], "team": ["a", "b"]})
    );
    assert_eq!(out["attributes"], json!({"meta": {}, "labelsx": 1}));
}

#[test]
fn rename_rules_in_order_with_predicates() {
    let r = remapper(json!({"attributeRemappingRules": [
        {"source": "request.method", "target": "http_method"},
        {"source": "origin", "target": "cloud.provider", "predicate": {"type": "datadog-query", "query": "env:production"}},
        {"source": "origin", "target": "debug.origin", "predicate": {"type": "datadog-query", "query": "env:staging"}},
        {"source": "copy", "target": "copied", "preserveSource": true},
        {"source": "absent", "target": "nothing"}]}));
    let event = |env: &str| {
        json!({"tags": {"env": [env]}, "attributes": {
            "request": {"method": "POST", "path": "/api/users"}, "origin": "aws", "copy": 1}})
    };
    assert_eq!(
        after(&r, event("production"))["attributes"],
        json!({"request": {"path": "/api/users"}, "copy": 1, "http_method": "POST", "cloud": {"provider": "aws"}, "copied": 1})
    );
    assert_eq!(
        after(&r, event("staging"))["attributes"],
        json!({"request": {"path": "/api/users"}, "copy": 1, "http_method": "POST", "debug": {"origin": "aws"}, "copied": 1})
    );
    assert_eq!(
        after(&r, event("dev"))["attributes"],
        json!({"request": {"path": "/api/users"}, "origin": "aws", "copy": 1, "http_method": "POST", "copied": 1})
    );
}

#[test]
fn rules_run_before_the_reserved_fields() {
    let r =
        remapper(json!({"attributeRemappingRules": [{"source": "body.text", "target": "msg"}]}));
    let out = after(
        &r,
        json!({"attributes": {"body": {"text": "from the body"}}}),
    );
    assert_eq!(out["message"], json!("from the body"));
}

#[test]
fn an_event_the_remapper_does_not_change_is_written_as_read() {
    let r = remapper(json!({"attributeRemappingRules": [
        {"source": "a", "target": "b", "predicate": {"type": "datadog-query", "query": "env:x"}}]}));
    let events =
        jobgraph_model::read_events(r#"{"message": "m", "attributes": { "a" : 1.50 }}"#).unwrap();
    let mut event = events.into_iter().next().unwrap();
    r.apply(&mut event);
    assert_eq!(event.attributes.unwrap().get(), r#"{ "a" : 1.50 }"#);
    // No attributes: nothing to do.
    assert_eq!(after(&r, json!({"message": ""})), json!({"message": ""}));
}

#[test]
fn bad_settings_name_the_field() {
    for (fields, piece) in [
        (
            json!({"messagePreserveSource": 1}),
            "/messagePreserveSource: must be a boolean",
        ),
        (
            json!({"tagMappings": {"t": "a.b"}}),
            "/tagMappings/t: must be an array of strings",
        ),
        (
            json!({"attributeRemappingRules": [{"target": "x"}]}),
            "/attributeRemappingRules/0/source",
        ),
        (
            json!({"attributeRemappingRules": [{"source": "a", "target": "b", "predicate": {"type": "datadog-query", "query": "(x"}}]}),
            "unbalanced parenthesis",
        ),
    ] {
        let err = compile("remap", fields.as_object().unwrap())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(piece) && err.contains("vertex remap"),
            "{fields}: {err}"
        );
    }
}

#[test]
fn a_rename_target_cannot_nest_without_bound() {
    let target = vec!["k"; 33].join(".");
    let fields = json!({"attributeRemappingRules": [{"source": "a", "target": target}]});
    let err = compile("remap", fields.as_object().unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("/attributeRemappingRules/0/target: has 33 keys; a target has at most 32"),
        "{err}"
    );
    let ok =
        json!({"attributeRemappingRules": [{"source": "a", "target": vec!["k"; 32].join(".")}]});
    let r = remapper(ok);
    let out = after(&r, json!({"attributes": {"a": 1}}));
    let mut at = &out["attributes"];
    for _ in 0..32 {
        at = &at["k"];
    }
    assert_eq!(at, &json!(1));
}
