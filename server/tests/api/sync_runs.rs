//! `POST /v1/jobs/sync`: a synchronous batch job run by the service on inline events, its
//! records read as the public client reads them (`\r\n`-separated JSON, `FINISHED` last).

use super::*;

fn values_job(template: &str, level: &str, events: Value) -> Value {
    json!({
        "name": "sync-batch",
        "execution": "SYNCHRONOUS",
        "processing": "BATCH",
        "jobGraph": {
            "vertices": [
                {"type": "logs-values-source", "name": "src", "values": events},
                {"type": "template-operation", "name": "errors", "templateId": template,
                 "templateInputs": {"level": level}},
                {"type": "log-transform", "name": "mark", "transforms": [
                    {"type": "tag-action", "order": 1, "modification": "ADD", "tagKey": "seen", "values": ["sync"]}]},
                {"type": "logs-sync-sink", "name": "sink"}
            ],
            "edges": ["src -> errors", "errors -> mark", "mark -> sink"]
        }
    })
}

/// The records of a sync answer, split at `\r\n`.
fn records(body: &str) -> Vec<Value> {
    assert!(body.ends_with("\r\n"), "records end with \\r\\n: {body:?}");
    body.split("\r\n")
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_str(l).expect("a JSON record"))
        .collect()
}

#[test]
fn a_synchronous_batch_job_streams_what_reaches_its_sink() {
    let token = alice();
    let level_filter = json!({
        "name": "Sync levels",
        "inputSchema": {"type": "object", "properties": {"level": {"type": "string"}}},
        "template": "({vertices: [{type: 'logs-filter', name: 'f', query: {type: 'simple-query', query: 'level:' + level}}], edges: []})",
        "inputs": {"input": "f:input"},
        "outputs": {"output": "f:output"}
    });
    let template = create_template(token, &level_filter)["id"]
        .as_str()
        .unwrap()
        .to_owned();
    // Parsed from text: `json!` would turn 1.50 into the float 1.5.
    let events: Value = serde_json::from_str(
        r#"[{"id": "1", "message": "disk full", "tags": {"level": ["error"]}, "attributes": {"n": 1.50}},
            {"id": "2", "message": "all good", "tags": {"level": ["info"]}},
            {"id": "3", "message": "timeout", "tags": {"level": ["error"]}, "eventTimestamp": "2026-11-25T12:00:00Z"}]"#,
    )
    .unwrap();
    let r = call(
        "POST",
        "/v1/jobs/sync",
        Some(token),
        Some(&values_job(&template, "error", events)),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("content-type"), Some("application/x-ndjson"));
    let records = records(&r.body);
    assert_eq!(
        records.first().map(|r| r["jobState"].clone()),
        Some(json!("RUNNING"))
    );
    assert_eq!(
        records.last().map(|r| r["jobState"].clone()),
        Some(json!("FINISHED"))
    );
    // One event per RUNNING record, as the public client counts them.
    let data: Vec<&Value> = records
        .iter()
        .filter(|r| r["jobState"] == "RUNNING" && !r["data"].is_null())
        .map(|r| &r["data"])
        .collect();
    assert!(data.iter().all(|e| e.is_object()), "{records:?}");
    let ids: Vec<&str> = data.iter().filter_map(|e| e["id"].as_str()).collect();
    assert_eq!(ids, ["1", "3"]);
    assert_eq!(data[0]["tags"]["seen"], json!(["sync"]));
    assert_eq!(data[1]["eventTimestamp"], "2026-11-25T12:00:00Z");
    assert!(
        r.body.contains("\"n\":1.50"),
        "numbers keep their text: {}",
        r.body
    );

    // The heartbeat endpoint answers the public client's post.
    let h = raw(
        "POST",
        "/v1/jobs/sync/heartbeat",
        &[
            ("authorization", &format!("Bearer {token}")),
            ("content-type", "text/plain"),
        ],
        b"token",
    );
    assert_eq!(h.status, 204, "{}", h.body);
}

#[test]
fn a_bad_query_or_event_is_a_400_before_anything_runs() {
    let token = alice();
    let mut job = values_job("unused", "error", json!([{"message": "x"}]));
    job["jobGraph"]["vertices"][1] = json!({"type": "logs-filter", "name": "errors", "query": {"type": "simple-query", "query": "(level:error"}});
    let r = call("POST", "/v1/jobs/sync", Some(token), Some(&job));
    assert_eq!(r.status, 400, "{}", r.body);
    // The query's text is parsed when the job runs: its error keeps its column.
    assert_eq!(
        r.error(),
        "Invalid query: unbalanced parenthesis: `(` at column 1 is never closed (vertex errors)",
        "{}",
        r.body
    );

    let mut job = values_job("unused", "error", json!([{"tags": {"k": "v"}}]));
    job["jobGraph"]["vertices"][1] = json!({"type": "logs-filter", "name": "errors", "query": {"type": "datadog-query", "predicate": "*"}});
    let r = call("POST", "/v1/jobs/sync", Some(token), Some(&job));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.error().contains("tags.k must be an array of strings"),
        "{}",
        r.body
    );
}

#[test]
fn execution_and_processing_are_required_and_must_be_synchronous_batch() {
    let token = alice();
    let mut job = values_job("unused", "error", json!([{"message": "x"}]));
    job.as_object_mut().unwrap().remove("processing");
    let r = call("POST", "/v1/jobs/sync", Some(token), Some(&job));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.error().contains("`processing` is required"), "{}", r.body);
    let mut job = values_job("unused", "error", json!([{"message": "x"}]));
    job["processing"] = json!("STREAMING");
    let r = call("POST", "/v1/jobs/sync", Some(token), Some(&job));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.error().starts_with(
            "POST /v1/jobs/sync runs SYNCHRONOUS BATCH jobs; this one is SYNCHRONOUS STREAMING"
        ),
        "{}",
        r.body
    );
}

#[test]
fn a_synchronous_job_reduces_logs_as_the_public_example_pipeline_does() {
    let token = alice();
    // The public example's shape, its agent source replaced by the sample events inline (as
    // the public client's job:draft does): parse, reduce, branch, a vendor sink for each side.
    let events: Vec<Value> = (0..12)
        .map(|i| json!({"id": format!("e{i}"), "eventTimestamp": i, "message": format!("order {i} placed total={i}.50 EUR")}))
        .chain([json!({"id": "err", "eventTimestamp": 20, "message": "payment failed", "tags": {"level": ["error"]}})])
        .collect();
    let job = json!({
        "name": "reduce-sync", "execution": "SYNCHRONOUS", "processing": "BATCH",
        "jobGraph": {
            "vertices": [
                {"type": "logs-values-source", "name": "src", "values": events},
                {"type": "grok-parser", "name": "parse", "grokParsingRules": ["order order %{integer:order.id} placed total=%{number:order.total} %{word:order.currency}"]},
                {"type": "log-reducer", "name": "reduce", "dedupThreshold": 3,
                 "attributeMergeStrategyEntries": [{"attributePath": ["order", "total"], "strategy": {"type": "sum"}}],
                 "logReducerExceptions": [{"type": "datadog-query", "query": "level:error"}]},
                {"type": "logs-branch", "name": "route", "predicate": {"type": "datadog-query", "query": "grepr.messagetype:summary"}},
                {"type": "datadog-log-sink", "name": "vendor", "integrationId": "dd"},
                {"type": "logs-sync-sink", "name": "rest"}
            ],
            "edges": ["src -> parse", "parse -> reduce", "reduce -> route", "route -> vendor", "route:else -> rest"]
        }
    });
    let r = call("POST", "/v1/jobs/sync", Some(token), Some(&job));
    assert_eq!(r.status, 200, "{}", r.body);
    let records = records(&r.body);
    assert_eq!(
        records.last().unwrap()["jobState"],
        "FINISHED",
        "{records:?}"
    );
    let data: Vec<&Value> = records
        .iter()
        .filter(|r| r["jobState"] == "RUNNING" && !r["data"].is_null())
        .map(|r| &r["data"])
        .collect();
    let kinds: Vec<&str> = data
        .iter()
        .map(|e| e["tags"]["grepr.messagetype"][0].as_str().unwrap())
        .collect();
    let mut sorted = kinds.clone();
    sorted.sort_unstable();
    assert_eq!(
        sorted,
        ["exception", "sample", "sample", "sample", "summary"],
        "{data:?}"
    );
    let summary = data
        .iter()
        .find(|e| e["tags"]["grepr.messagetype"][0] == "summary")
        .unwrap();
    assert_eq!(
        summary["message"],
        "[9 times in 2m] order <number> placed total=<number> EUR"
    );
    assert_eq!(summary["attributes"]["grepr"]["repeatCount"], 9);
    // The grok parser ran first: the held orders' totals, 3.50 + … + 11.50, summed.
    assert_eq!(summary["attributes"]["order"]["total"], json!(67.5));
}
