//! The public documentation's example jobs (examples/public) and the public client's
//! predicates through the real service: accepted unchanged, run where the service runs them,
//! refused with a pointer where they are wrong.

use super::*;

fn example(file: &str) -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/public")
        .join(file);
    serde_json::from_str(&std::fs::read_to_string(&path).expect("example file")).expect("JSON")
}

/// The events of a sync answer's `RUNNING` records, in order.
fn streamed_events(body: &str) -> Vec<Value> {
    let mut events = Vec::new();
    for line in body.split("\r\n").filter(|l| !l.is_empty()) {
        let record: Value = serde_json::from_str(line).expect("a JSON record");
        if record["jobState"] == "RUNNING" && !record["data"].is_null() {
            assert!(record["data"].is_object(), "one event per record: {record}");
            events.push(record["data"].clone());
        }
    }
    events
}

#[test]
fn the_documented_pipelines_are_stored_unchanged() {
    let token = alice();
    for file in ["agent-to-lake.json", "reference-pipeline.json"] {
        let job = example(file);
        for path in ["/v1/jobs", "/v1/jobs/async"] {
            let r = call("POST", path, Some(token), Some(&job));
            assert_eq!(r.status, 201, "{file} {path}: {}", r.body);
            let stored = r.json();
            assert_eq!(stored["jobGraph"], job["jobGraph"], "{file} {path}");
            let id = stored["id"].as_str().unwrap();
            let r = call(
                "GET",
                &format!("/v1/jobs/{id}?resolved=true"),
                Some(token),
                None,
            );
            assert_eq!(r.status, 200, "{}", r.body);
            assert_eq!(r.json()["jobGraph"], job["jobGraph"], "{file}: resolved");
        }
    }
}

#[test]
fn a_predicate_is_checked_where_the_job_enters_with_its_pointer() {
    let token = alice();
    let mut job = example("reference-pipeline.json");
    job["name"] = json!("bad_predicate");
    job["jobGraph"]["vertices"][1]["predicate"] = json!({"type": "and-predicate", "queries": [
        {"type": "datadog-query", "query": "level:error"},
        {"type": "message-length", "minLength": 10, "maxLength": 2}]});
    let r = call("POST", "/v1/jobs", Some(token), Some(&job));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.body.contains("/vertices/1/predicate/queries/1/maxLength")
            && r.body.contains("less than `minLength` 10"),
        "{}",
        r.body
    );
    // A logs-filter with neither `predicate` nor `query` names the field to give.
    job["jobGraph"]["vertices"][1] = json!({"type": "logs-filter", "name": "drop_debug"});
    let r = call("POST", "/v1/jobs", Some(token), Some(&job));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.body.contains("/vertices/1/query") && r.body.contains("is required"),
        "{}",
        r.body
    );
}

#[test]
fn a_sync_run_applies_the_public_clients_predicates() {
    let long = "x".repeat(40);
    let job = json!({
        "name": "predicates",
        "execution": "SYNCHRONOUS",
        "processing": "BATCH",
        "jobGraph": {
            "vertices": [
                {"type": "logs-values-source", "name": "src", "values": [
                    {"id": "hit", "message": long, "tags": {"level": ["error"]}},
                    {"id": "short", "message": "short", "tags": {"level": ["error"]}},
                    {"id": "info", "message": long, "tags": {"level": ["info"]}}]},
                {"type": "logs-filter", "name": "f", "predicate": {"type": "and-predicate", "queries": [
                    {"type": "datadog-query", "query": "level:error"},
                    {"type": "message-length", "minLength": 40}]}},
                {"type": "logs-sync-sink", "name": "sink"}
            ],
            "edges": ["src -> f", "f -> sink"]
        }
    });
    let r = call("POST", "/v1/jobs/sync", Some(alice()), Some(&job));
    assert_eq!(r.status, 200, "{}", r.body);
    let ids: Vec<_> = streamed_events(&r.body)
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(ids, ["hit"], "{}", r.body);
}

#[test]
fn a_sync_run_refuses_a_source_it_cannot_read() {
    let job = json!({
        "name": "agent",
        "execution": "SYNCHRONOUS",
        "processing": "BATCH",
        "jobGraph": {
            "vertices": [
                {"type": "datadog-log-agent-source", "name": "agent", "integrationId": "dd"},
                {"type": "logs-sync-sink", "name": "sink"}
            ],
            "edges": ["agent -> sink"]
        }
    });
    let r = call("POST", "/v1/jobs/sync", Some(alice()), Some(&job));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.body.contains("\\\"agent\\\"") && r.body.contains("datadog-log-agent-source"),
        "names the vertex and its type: {}",
        r.body
    );
}

#[test]
fn the_organization_answers_the_newest_public_clients_question() {
    let r = call("GET", "/v1/organization", Some(alice()), None);
    assert_eq!(r.status, 200, "{}", r.body);
    let org = r.json();
    assert_eq!(org["name"], "acme");
    assert_eq!(
        org["featureFlags"],
        json!([]),
        "no flag picks another engine"
    );
    let r = call("GET", "/api/v1/organization", None, None);
    assert_eq!(r.status, 401, "{}", r.body);
}
