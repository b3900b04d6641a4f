//! Pipelines deliver to vendors, at least once (issue 39, docs/intake.md "Delivery"): what a
//! `datadog-log-sink` sends is read by `datadog-api-client`'s `HTTPLogItem` model and what a
//! `splunk-log-sink` sends by a HEC decoder (`tests/peers/vendor_receiver.py`); a vendor that
//! answers 503 gets the same bytes again until it takes them; a request refused for good goes
//! to the `dead-letters` dataset; and a second `jobgraph serve`'s intake takes a first one's
//! delivery into its own pipeline.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{Server, free_port};
use crate::intake::{DD_KEY, HEC_KEY, OTLP_KEY, integrations, numbered, peer};
use crate::receiver::Receiver;
use crate::runner::{Restartable, create_job, job, rows, wait_state};

const VENDOR_KEY: &str = "vendor-api-key-0123456789";

/// A service whose integration `vendor` (of `kind`) delivers to `url`.
fn service_delivering_to(kind: &str, url: &str, key: &str) -> Restartable {
    let mut all = integrations();
    all.as_array_mut().unwrap().push(json!({
        "id": "vendor", "name": "The vendor", "type": kind,
        "deliveryUrl": url, "deliveryKey": key,
        "payload": {"additionalTags": ["pipeline:jobgraph"]}
    }));
    Restartable::with(json!({}), json!({"integrations": all}))
}

/// The job's first vendor sink's `pipelineStatus.delivery`, once it delivered `n` events (or
/// after 10 s).
fn delivered(server: &Server, token: &str, id: &str, n: u64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let d = job(server, token, id, None)["pipelineStatus"]["delivery"][0].clone();
        if d["delivered"] == n || Instant::now() > deadline {
            return d;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A streaming job from Datadog agents (`dd-agents`) to `sink` (of integration `vendor`).
fn relay(server: &Server, token: &str, sink: &str) -> String {
    let job = json!({
        "name": "relay", "execution": "ASYNCHRONOUS", "processing": "STREAMING",
        "jobGraph": {"vertices": [
            {"type": "datadog-log-agent-source", "name": "agents", "integrationId": "dd-agents"},
            {"type": sink, "name": "vendor", "integrationId": "vendor", "additionalTags": ["team:core"]}],
         "edges": ["agents -> vendor"]}
    });
    let id = create_job(server, token, &job)["id"]
        .as_str()
        .unwrap()
        .to_owned();
    wait_state(server, token, &id, None, "RUNNING");
    id
}

fn send(server: &Server, count: usize, prefix: &str) {
    let count = count.to_string();
    peer(
        "send_datadog.py",
        &[
            "--url",
            &server.url(),
            "--api-key",
            DD_KEY,
            "--count",
            &count,
            "--batch",
            "500",
            "--gzip",
            "--host",
            "web-3",
            "--service",
            "api",
            "--message-prefix",
            prefix,
        ],
    );
}

/// The messages of the items: `field` itself, or its `message` when it is an object (a HEC
/// event with attributes).
fn sorted_messages(items: &[Value], field: &str) -> Vec<String> {
    let mut m: Vec<String> = items
        .iter()
        .map(|i| {
            let v = &i["item"][field];
            v.as_str()
                .or_else(|| v["message"].as_str())
                .unwrap_or_default()
                .to_owned()
        })
        .collect();
    m.sort();
    m
}

#[test]
fn a_datadog_sink_delivers_what_the_datadog_client_model_reads_and_retries_a_503() {
    let receiver = Receiver::start(
        "datadog",
        &[
            "--expect-key",
            VENDOR_KEY,
            "--fail-first",
            "2",
            "--fail-status",
            "503",
            "--retry-after",
            "1",
        ],
    );
    let service = service_delivering_to("datadog", &receiver.url(), VENDOR_KEY);
    let server = service.start();
    let token = server.token("alice", "alice-secret");
    let id = relay(&server, &token, "datadog-log-sink");
    send(&server, 1500, "to-dd");
    let items = receiver.items(1500);
    assert_eq!(sorted_messages(&items, "message"), numbered("to-dd", 1500));
    let item = &items[0]["item"];
    assert_eq!(item["hostname"], "web-3", "{item}");
    assert_eq!(item["service"], "api", "{item}");
    let tags = item["ddtags"].as_str().unwrap();
    assert!(
        tags.contains("pipeline:jobgraph") && tags.contains("team:core"),
        "{tags}"
    );
    // The two refused requests were sent again, the same bytes.
    let lines = receiver.lines();
    let refused: Vec<&Value> = lines
        .iter()
        .filter(|l| l.get("rejected").is_some())
        .collect();
    assert_eq!(refused.len(), 2, "{refused:?}");
    let taken: std::collections::HashSet<&str> = lines
        .iter()
        .filter(|l| l.get("item").is_some())
        .filter_map(|l| l["body_sha256"].as_str())
        .collect();
    for r in &refused {
        assert!(taken.contains(r["body_sha256"].as_str().unwrap()), "{r}");
    }
    let delivery = delivered(&server, &token, &id, 1500);
    assert_eq!(delivery["delivered"], 1500, "{delivery}");
    assert_eq!(delivery["retries"], 2, "{delivery}");
    assert_eq!(delivery["deadLetters"], 0, "{delivery}");
    // The same in /metrics, with the intake's counters, in a text promtool accepts.
    let text = server.call("GET", "/metrics", Some(&token), None).body;
    let sink = format!("job_id=\"{id}\",job_name=\"relay\",version=\"1\",vertex=\"vendor\"");
    for line in [
        format!("jobgraph_delivery_events_total{{{sink}}} 1500"),
        format!("jobgraph_delivery_retries_total{{{sink}}} 2"),
        format!("jobgraph_delivery_dead_letters_total{{{sink}}} 0"),
        format!("jobgraph_delivery_failing{{{sink}}} 0"),
        "jobgraph_intake_events_total{integration=\"dd-agents\"} 1500".to_owned(),
        "jobgraph_intake_requests_refused_total{integration=\"dd-agents\"} 0".to_owned(),
    ] {
        assert!(text.lines().any(|l| l == line), "{line}\n{text}");
    }
    crate::runner_live::promtool_accepts(&text);
}

/// `sumologic-log-sink` delivers OTLP/HTTP protobuf (Sumo Logic's OTLP source), read by
/// `opentelemetry-proto`'s `ExportLogsServiceRequest`: one resource per tag set, the severity,
/// the body and the tags as attributes.
#[test]
fn a_sumo_logic_sink_delivers_otlp_that_opentelemetry_proto_reads() {
    let receiver = Receiver::start("otlp", &["--expect-key", VENDOR_KEY]);
    let service = service_delivering_to("sumo", &receiver.url(), VENDOR_KEY);
    let server = service.start();
    let token = server.token("alice", "alice-secret");
    let listed = server
        .call("GET", "/v1/integrations/vendor", Some(&token), None)
        .json();
    assert_eq!(
        listed["deliversTo"],
        format!("{}/…", receiver.url()),
        "a Sumo address holds its token: only its origin is shown: {listed}"
    );
    let id = relay(&server, &token, "sumologic-log-sink");
    send(&server, 1200, "to-sumo");
    let items = receiver.items(1200);
    let body = |i: &Value| {
        i["item"]["log_record"]["body"]["stringValue"]
            .as_str()
            .unwrap_or("")
            .to_owned()
    };
    let mut messages: Vec<String> = items.iter().map(body).collect();
    messages.sort();
    assert_eq!(messages, numbered("to-sumo", 1200));
    let item = &items[0]["item"];
    let resource: Vec<String> = item["resource"]["attributes"]
        .as_array()
        .unwrap_or(&Vec::new())
        .iter()
        .map(|a| {
            format!(
                "{}={}",
                a["key"].as_str().unwrap_or(""),
                a["value"]["stringValue"].as_str().unwrap_or("")
            )
        })
        .collect();
    for wanted in [
        "host.name=web-3",
        "service.name=api",
        "team=core",
        "pipeline=jobgraph",
    ] {
        assert!(
            resource.iter().any(|r| r == wanted),
            "{wanted} in {resource:?}: {item}"
        );
    }
    let delivery = delivered(&server, &token, &id, 1200);
    assert_eq!(delivery["delivered"], 1200, "{delivery}");
    // At most 1000 events a request (how many requests depends on how the job's reads fell).
    let mut per_request = std::collections::BTreeMap::<u64, usize>::new();
    for item in &items {
        *per_request
            .entry(item["request"].as_u64().unwrap())
            .or_default() += 1;
    }
    assert!(per_request.values().all(|n| *n <= 1000), "{per_request:?}");
    assert_eq!(
        delivery["requests"],
        per_request.len(),
        "{delivery} {per_request:?}"
    );
}

/// `newrelic-log-sink` delivers New Relic's Log API JSON with the `Api-Key` header: every
/// request is what New Relic's own `newrelic-telemetry-sdk` writes for the same logs (the
/// receiver builds each log and the body again with it and compares).
#[test]
fn a_new_relic_sink_delivers_what_the_new_relic_sdk_writes() {
    let receiver = Receiver::start("newrelic", &["--expect-key", VENDOR_KEY]);
    let service = service_delivering_to("newrelic", &receiver.url(), VENDOR_KEY);
    let server = service.start();
    let token = server.token("alice", "alice-secret");
    let id = relay(&server, &token, "newrelic-log-sink");
    send(&server, 1100, "to-nr");
    let items = receiver.items(1100);
    assert_eq!(sorted_messages(&items, "message"), numbered("to-nr", 1100));
    let item = &items[0]["item"];
    let attributes = &item["attributes"];
    assert_eq!(attributes["hostname"], "web-3", "{item}");
    assert_eq!(attributes["service.name"], "api", "{item}");
    assert_eq!(attributes["team"], "core", "{item}");
    assert_eq!(attributes["pipeline"], "jobgraph", "{item}");
    assert!(
        item["timestamp"].as_i64().unwrap() > 1_700_000_000_000,
        "{item}"
    );
    let levels: std::collections::BTreeSet<&str> = items
        .iter()
        .filter_map(|i| i["item"]["attributes"]["level"].as_str())
        .collect();
    assert!(
        levels.contains("ERROR") && levels.contains("INFO"),
        "{levels:?}"
    );
    let delivery = delivered(&server, &token, &id, 1100);
    assert_eq!(delivery["delivered"], 1100, "{delivery}");
    assert_eq!(delivery["deadLetters"], 0, "{delivery}");
}

#[test]
fn a_request_refused_for_good_goes_to_the_dead_letters_and_the_rest_is_delivered() {
    let receiver = Receiver::start(
        "splunk",
        &[
            "--expect-key",
            VENDOR_KEY,
            "--permanent-status",
            "400",
            "--permanent-match",
            "poison",
        ],
    );
    let service = service_delivering_to("splunk", &receiver.url(), VENDOR_KEY);
    let server = service.start();
    let token = server.token("alice", "alice-secret");
    let id = relay(&server, &token, "splunk-log-sink");
    send(&server, 20, "fine");
    receiver.items(20);
    send(&server, 5, "poison");
    // The refused batch is in the organization's dead letters, tagged with why (waited for
    // before more is sent, so that the next events are a request of their own).
    let deadline = Instant::now() + Duration::from_secs(30);
    let letters = loop {
        let datasets = server
            .call("GET", "/v1/datasets", Some(&token), None)
            .json();
        let dead = datasets
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["name"] == "dead-letters")
            .map(|d| d["id"].as_str().unwrap().to_owned());
        let letters = dead.map(|d| rows(&server, &token, &d)).unwrap_or_default();
        if letters.len() >= 5 || Instant::now() > deadline {
            break letters;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let mut messages: Vec<String> = letters
        .iter()
        .map(|l| l["message"].as_str().unwrap().to_owned())
        .collect();
    messages.sort();
    assert_eq!(messages, numbered("poison", 5));
    assert_eq!(
        letters[0]["tags"]["dead-letter.status"],
        json!(["400"]),
        "{}",
        letters[0]
    );
    assert_eq!(
        letters[0]["tags"]["dead-letter.sink"],
        json!(["vendor"]),
        "{}",
        letters[0]
    );
    assert_eq!(
        letters[0]["tags"]["dead-letter.job"],
        json!([id]),
        "{}",
        letters[0]
    );
    send(&server, 10, "after");
    let items = receiver.items(30);
    let mut expected = numbered("fine", 20);
    expected.extend(numbered("after", 10));
    expected.sort();
    assert_eq!(sorted_messages(&items, "event"), expected);
    assert!(
        items.iter().all(|i| i["item"]["host"] == "web-3"),
        "{:?}",
        items[0]
    );
    let status = job(&server, &token, &id, None)["pipelineStatus"]["delivery"][0].clone();
    assert_eq!(status["deadLetters"], 5, "{status}");
}

/// A first service's `datadog-log-sink` delivers to a second service's Datadog intake, whose
/// own pipeline writes its lake; and the same through Splunk HEC, and through OTLP/HTTP
/// (`sumologic-log-sink`) into its OTLP intake.
#[test]
fn one_service_delivers_into_another_services_intake() {
    let second = Restartable::with(json!({}), json!({"integrations": integrations()}));
    let second = second.start();
    let token2 = second.token("alice", "alice-secret");
    let out = crate::create_dataset(&second, &token2, "relayed", json!({}));
    for (source, integration) in [
        ("datadog-log-agent-source", "dd-agents"),
        ("splunk-log-agent-source", "hec-agents"),
        ("otel-log-source", "otel-agents"),
    ] {
        let job = json!({
            "name": format!("from-{integration}"), "execution": "ASYNCHRONOUS", "processing": "STREAMING",
            "jobGraph": {"vertices": [
                {"type": source, "name": "agents", "integrationId": integration},
                {"type": "logs-iceberg-table-sink", "name": "out", "datasetId": out}],
             "edges": ["agents -> out"]}
        });
        let id = create_job(&second, &token2, &job)["id"]
            .as_str()
            .unwrap()
            .to_owned();
        wait_state(&second, &token2, &id, None, "RUNNING");
    }
    for (kind, sink, key, prefix) in [
        ("datadog", "datadog-log-sink", DD_KEY, "via-dd"),
        ("splunk", "splunk-log-sink", HEC_KEY, "via-hec"),
        ("sumo", "sumologic-log-sink", OTLP_KEY, "via-otlp"),
    ] {
        let first = service_delivering_to(kind, &second.url(), key);
        let first = first.start();
        let token1 = first.token("alice", "alice-secret");
        relay(&first, &token1, sink);
        send(&first, 700, prefix);
        let deadline = Instant::now() + Duration::from_secs(60);
        let got = loop {
            let got: Vec<Value> = rows(&second, &token2, &out)
                .into_iter()
                .filter(|r| r["message"].as_str().unwrap_or("").starts_with(prefix))
                .collect();
            if got.len() >= 700 || Instant::now() > deadline {
                break got;
            }
            std::thread::sleep(Duration::from_millis(200));
        };
        let mut messages: Vec<String> = got
            .iter()
            .map(|r| r["message"].as_str().unwrap().to_owned())
            .collect();
        messages.sort();
        assert_eq!(messages, numbered(prefix, 700), "{kind}");
        assert_eq!(
            got[0]["tags"]["host"],
            json!(["web-3"]),
            "{kind}: {}",
            got[0]
        );
        assert_eq!(
            got[0]["tags"]["team"],
            json!(["core"]),
            "{kind}: {}",
            got[0]
        );
    }
}

/// The vendor is down: delivery retries and says so; asked to stop meanwhile, the job stops
/// at its last checkpoint; the vendor up and the job running again, every event is delivered.
#[test]
fn a_vendor_down_loses_nothing_and_a_stop_meanwhile_is_not_held_up() {
    let port = free_port();
    let url = format!("http://127.0.0.1:{port}");
    let service = service_delivering_to("datadog", &url, VENDOR_KEY);
    let server = service.start();
    let token = server.token("alice", "alice-secret");
    let id = relay(&server, &token, "datadog-log-sink");
    send(&server, 300, "outage");
    let deadline = Instant::now() + Duration::from_secs(20);
    let failing = loop {
        let d = job(&server, &token, &id, None)["pipelineStatus"]["delivery"][0].clone();
        if d["retries"].as_u64().unwrap_or(0) >= 2 || Instant::now() > deadline {
            break d;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(failing["failingSince"].is_string(), "{failing}");
    assert!(
        failing["lastError"].as_str().unwrap().contains("no answer"),
        "{failing}"
    );
    let stopped = Instant::now();
    crate::runner::set_desired(&server, &token, &id, "STOPPED");
    assert!(
        stopped.elapsed() < Duration::from_secs(10),
        "the stop waited for the vendor"
    );
    let receiver = Receiver::start("datadog", &["--port", &port.to_string()]);
    assert_eq!(receiver.port, port);
    crate::runner::set_desired(&server, &token, &id, "RUNNING");
    let items = receiver.items(300);
    assert_eq!(sorted_messages(&items, "message"), numbered("outage", 300));
}
