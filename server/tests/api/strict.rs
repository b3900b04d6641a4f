//! Issue 27, point 7: what the service refuses that it used to accept: duplicate edges and
//! self-loops, the caller setting the service's own tags, a `desiredState` nobody may ask
//! for, impossible dates, repeated single-valued query parameters, two `Authorization`
//! headers.

use super::*;

fn graph_job(name: &str, edges: Value) -> Value {
    json!({
        "name": name,
        "execution": "ASYNCHRONOUS",
        "processing": "STREAMING",
        "jobGraph": {
            "vertices": [
                {"type": "logs-iceberg-table-source", "name": "src", "table": "logs", "processing": "STREAM",
                 "query": {"type": "simple-query", "query": "*"}},
                {"type": "datadog-log-sink", "name": "sink", "integrationId": "dd-prod"}
            ],
            "edges": edges
        }
    })
}

#[test]
fn duplicate_edges_and_self_loops_are_400_naming_the_edge() {
    let token = alice();
    let r = call(
        "POST",
        "/v1/jobs",
        Some(token),
        Some(&graph_job("dup", json!(["src -> sink", "src  ->  sink"]))),
    );
    assert_eq!(r.status, 400, "{}", r.body);
    let message = r.json()["message"].as_str().unwrap_or_default().to_owned();
    assert!(
        message.contains("/jobGraph/edges/1") || message.contains("/edges/1"),
        "{message}"
    );
    assert!(
        message.contains("duplicate edge") && message.contains("remove one of them"),
        "{message}"
    );

    let r = call(
        "POST",
        "/v1/jobs",
        Some(token),
        Some(&graph_job("loop", json!(["src -> sink", "sink -> sink"]))),
    );
    assert_eq!(r.status, 400, "{}", r.body);
    let message = r.json()["message"].as_str().unwrap_or_default().to_owned();
    assert!(
        message.contains("edges/1") && message.contains("wires vertex \"sink\" to itself"),
        "{message}"
    );

    // A million copies of one edge: refused, with a short answer.
    let edges: Vec<Value> = (0..200_000).map(|_| json!("src -> sink")).collect();
    let r = call(
        "POST",
        "/v1/jobs",
        Some(token),
        Some(&graph_job("many", Value::Array(edges))),
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.len() < 64 * 1024, "{} bytes", r.body.len());
    assert!(r.body.contains("more problems not listed"), "{}", r.body);

    // The same graph without the repeats is fine.
    let r = call(
        "POST",
        "/v1/jobs",
        Some(token),
        Some(&graph_job("fine", json!(["src -> sink"]))),
    );
    assert_eq!(r.status, 201, "{}", r.body);
}

#[test]
fn the_service_sets_its_own_tags() {
    let token = alice();
    let mut job = graph_job("tagged", json!(["src -> sink"]));
    job["tags"] = json!({"createdByUser": "mallory", "createdUsing": "forged", "team": "red"});
    let r = call("POST", "/v1/jobs", Some(token), Some(&job));
    assert_eq!(r.status, 201, "{}", r.body);
    let created = r.json();
    assert_eq!(created["tags"]["createdByUser"], "alice");
    assert_eq!(created["tags"]["createdUsing"], "api");
    assert_eq!(created["tags"]["team"], "red");
    let id = created["id"].as_str().unwrap_or_default().to_owned();

    // An update cannot rewrite them either (nor drop them): they describe the creation.
    let r = call(
        "PUT",
        &format!("/v1/jobs/{id}"),
        Some(token),
        Some(&json!({"tags": {"createdByUser": "mallory", "team": "blue"}})),
    );
    assert_eq!(r.status, 202, "{}", r.body);
    let updated = r.json();
    assert_eq!(updated["tags"]["createdByUser"], "alice");
    assert_eq!(updated["tags"]["createdUsing"], "api");
    assert_eq!(updated["tags"]["team"], "blue");
}

#[test]
fn desired_state_is_running_or_stopped() {
    let token = alice();
    let mut job = graph_job("deleted-state", json!(["src -> sink"]));
    job["desiredState"] = json!("DELETED");
    let r = call("POST", "/v1/jobs", Some(token), Some(&job));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.body
            .contains("`desiredState` must be one of RUNNING, STOPPED"),
        "{}",
        r.body
    );

    job["desiredState"] = json!("STOPPED");
    let r = call("POST", "/v1/jobs", Some(token), Some(&job));
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap_or_default().to_owned();
    let r = call(
        "PUT",
        &format!("/v1/jobs/{id}"),
        Some(token),
        Some(&json!({"desiredState": "DELETED"})),
    );
    assert_eq!(r.status, 400, "{}", r.body);
    let r = call(
        "PUT",
        &format!("/v1/jobs/{id}"),
        Some(token),
        Some(&json!({"desiredState": "RUNNING"})),
    );
    assert_eq!(r.status, 202, "{}", r.body);
    assert_eq!(r.json()["desiredState"], "RUNNING");
}

#[test]
fn impossible_dates_and_repeated_parameters_are_400() {
    let token = alice();
    for since in ["2026-02-30T00:00:00Z", "2026-04-31", "2025-02-29T10:00Z"] {
        let r = call("GET", &format!("/v1/jobs?since={since}"), Some(token), None);
        assert_eq!(r.status, 400, "{since}: {}", r.body);
        assert!(r.body.contains("`since`"), "{}", r.body);
    }
    let r = call(
        "GET",
        "/v1/jobs?since=2028-02-29T00:00:00Z",
        Some(token),
        None,
    );
    assert_eq!(r.status, 200, "{}", r.body);

    for query in [
        "/v1/jobs?since=PT1H&since=PT2H",
        "/v1/jobs?latest=true&latest=false",
        "/v1/jobs?name=a&name=b",
        "/v1/templates/NOSUCHTEMPLATE00?version=1&version=2",
    ] {
        let r = call("GET", query, Some(token), None);
        assert_eq!(r.status, 400, "{query}: {}", r.body);
        assert!(r.body.contains("more than once"), "{query}: {}", r.body);
    }
    // Multi-valued parameters may still repeat.
    let r = call(
        "GET",
        "/v1/jobs?state=PENDING&state=RUNNING",
        Some(token),
        None,
    );
    assert_eq!(r.status, 200, "{}", r.body);
}

#[test]
fn two_authorization_headers_are_400() {
    let bearer = format!("Bearer {}", alice());
    let r = raw(
        "GET",
        "/v1/templates",
        &[("Authorization", &bearer), ("Authorization", &bearer)],
        b"",
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.body.contains("more than one Authorization header"),
        "{}",
        r.body
    );
    let r = raw("GET", "/v1/templates", &[("Authorization", &bearer)], b"");
    assert_eq!(r.status, 200, "{}", r.body);
}
