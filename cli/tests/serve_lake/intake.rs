//! Logs from agents reach running pipelines (issue 39, docs/intake.md), sent by the real
//! senders (`tests/peers`, in `target/peers-venv`): Datadog's API client, the OpenTelemetry
//! Python SDK (protobuf and the project's JSON exporter), the OpenTelemetry Collector tailing a
//! file, and `splunk-hec-handler`. Each job reads its integration's agents into a dataset;
//! the dataset is read back. `kill -9` right after the answers loses nothing acknowledged.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::Server;
use crate::runner::{Restartable, create_job, rows, set_desired, wait_rows, wait_state};
use crate::{alice_on, create_dataset, server};

pub const DD_KEY: &str = "dd-ingest-key-0123456789abcdef";
pub const OTLP_KEY: &str = "otlp-ingest-key-0123456789abcdef";
pub const HEC_KEY: &str = "hec-ingest-key-0123456789abcdef";
pub const COLLECTOR_KEY: &str = "collector-ingest-key-0123456789abcdef";

/// The integrations of the test servers, with their ingest keys.
pub fn integrations() -> Value {
    json!([
        {"id": "dd-agents", "name": "Datadog agents", "type": "datadog", "ingestKey": DD_KEY},
        {"id": "otel-agents", "name": "OpenTelemetry", "type": "otlp", "ingestKey": OTLP_KEY},
        {"id": "hec-agents", "name": "Splunk forwarders", "type": "splunk", "ingestKey": HEC_KEY},
        {"id": "collectors", "name": "Collectors", "type": "otlp", "ingestKey": COLLECTOR_KEY}
    ])
}

pub(crate) use crate::common::{peer, peers_python as python, workspace};

/// A dataset and a streaming job reading `integration`'s agents (`source` type) into it,
/// running: (dataset, job id).
pub(crate) fn agent_job(
    server: &Server,
    token: &str,
    source: &str,
    integration: &str,
) -> (String, String) {
    let out = create_dataset(server, token, &format!("{integration}-out"), json!({}));
    let job = json!({
        "name": format!("{integration}-to-lake"), "execution": "ASYNCHRONOUS", "processing": "STREAMING",
        "jobGraph": {"vertices": [
            {"type": source, "name": "agents", "integrationId": integration},
            {"type": "logs-iceberg-table-sink", "name": "out", "datasetId": out}],
         "edges": ["agents -> out"]}
    });
    let id = create_job(server, token, &job)["id"]
        .as_str()
        .unwrap()
        .to_owned();
    wait_state(server, token, &id, None, "RUNNING");
    (out, id)
}

pub(crate) fn messages(rows: &[Value]) -> Vec<String> {
    let mut m: Vec<String> = rows
        .iter()
        .map(|r| r["message"].as_str().unwrap_or_default().to_owned())
        .collect();
    m.sort();
    m
}

pub(crate) fn numbered(prefix: &str, n: usize) -> Vec<String> {
    let mut m: Vec<String> = (0..n).map(|i| format!("{prefix} {i}")).collect();
    m.sort();
    m
}

/// Every event of `dataset` once there are `n` (and no more after a last checkpoint).
pub(crate) fn settled(server: &Server, token: &str, dataset: &str, n: usize) -> Vec<Value> {
    wait_rows(server, token, dataset, n);
    std::thread::sleep(Duration::from_millis(500));
    rows(server, token, dataset)
}

#[test]
fn datadog_api_client_logs_reach_a_running_pipeline_gzipped_with_tags_and_status() {
    datadog_client_on(server());
}

/// `datadog_api_client_logs_reach_a_running_pipeline_gzipped_with_tags_and_status`, on `server`.
pub(crate) fn datadog_client_on(server: &Server) {
    let token = alice_on(server);
    let (out, _) = agent_job(server, &token, "datadog-log-agent-source", "dd-agents");
    let sent = peer(
        "send_datadog.py",
        &[
            "--url",
            &server.url(),
            "--api-key",
            DD_KEY,
            "--count",
            "250",
            "--batch",
            "100",
            "--gzip",
            "--service",
            "checkout",
            "--source",
            "python",
            "--host",
            "web-7",
            "--tags",
            "env:test,team:a",
            "--message-prefix",
            "dd-msg",
        ],
    );
    assert_eq!(sent["statuses"], json!([202, 202, 202]), "{sent}");
    let rows = settled(server, &token, &out, 250);
    assert_eq!(messages(&rows), numbered("dd-msg", 250));
    let first = rows.iter().find(|r| r["message"] == "dd-msg 2").unwrap();
    assert_eq!(first["tags"]["host"], json!(["web-7"]), "{first}");
    assert_eq!(first["tags"]["service"], json!(["checkout"]), "{first}");
    assert_eq!(first["tags"]["source"], json!(["python"]), "{first}");
    assert_eq!(first["tags"]["env"], json!(["test"]), "{first}");
    // i % 3 == 2: status "error".
    assert_eq!(first["severity"], 17, "{first}");
    // A wrong key: the client hears Datadog's 403.
    peer(
        "send_datadog.py",
        &[
            "--url",
            &server.url(),
            "--api-key",
            "not-our-key-0123456789",
            "--count",
            "1",
            "--expect-status",
            "403",
        ],
    );
}

#[test]
fn the_opentelemetry_sdk_exports_logs_with_resources_severities_and_trace_ids() {
    otel_sdk_on(server());
}

/// `the_opentelemetry_sdk_exports_logs_with_resources_severities_and_trace_ids`, on `server`.
pub(crate) fn otel_sdk_on(server: &Server) {
    let token = alice_on(server);
    let (out, _) = agent_job(server, &token, "otel-log-source", "otel-agents");
    let endpoint = format!("{}/v1/logs", server.url());
    let auth = format!("Authorization=Bearer {OTLP_KEY}");
    let sent = peer(
        "send_otlp.py",
        &[
            "--endpoint",
            &endpoint,
            "--header",
            &auth,
            "--count",
            "30",
            "--message-prefix",
            "otlp-msg",
        ],
    );
    let json_sent = peer(
        "send_otlp.py",
        &[
            "--endpoint",
            &endpoint,
            "--header",
            &auth,
            "--count",
            "20",
            "--json",
            "--message-prefix",
            "otlp-json",
        ],
    );
    let rows = settled(server, &token, &out, 50);
    let mut expected = numbered("otlp-msg", 30);
    expected.extend(numbered("otlp-json", 20));
    expected.sort();
    assert_eq!(messages(&rows), expected);
    let span = &sent["spans"][0];
    let traced = rows
        .iter()
        .find(|r| r["message"] == format!("otlp-msg {}", span["seq"]))
        .unwrap();
    assert_eq!(
        traced["attributes"]["trace_id"], span["trace_id"],
        "{traced}"
    );
    assert_eq!(traced["attributes"]["span_id"], span["span_id"], "{traced}");
    assert!(traced["tags"]["service"].is_array(), "{traced}");
    let severities: std::collections::BTreeSet<u64> =
        rows.iter().filter_map(|r| r["severity"].as_u64()).collect();
    assert_eq!(severities, [5, 9, 13, 17, 21].into(), "{json_sent}");
}

#[test]
fn splunk_hec_handler_events_reach_a_pipeline() {
    hec_handler_on(server());
}

/// `splunk_hec_handler_events_reach_a_pipeline`, on `server`.
pub(crate) fn hec_handler_on(server: &Server) {
    let token = alice_on(server);
    let (out, _) = agent_job(server, &token, "splunk-log-agent-source", "hec-agents");
    peer(
        "send_hec.py",
        &[
            "--url",
            &server.url(),
            "--token",
            HEC_KEY,
            "--count",
            "12",
            "--sourcetype",
            "app",
            "--message-prefix",
            "hec-msg",
        ],
    );
    let rows = settled(server, &token, &out, 12);
    assert_eq!(messages(&rows), numbered("hec-msg", 12));
    assert!(
        rows.iter()
            .all(|r| r["tags"]["sourcetype"] == json!(["app"])),
        "{rows:?}"
    );
}

#[test]
fn the_opentelemetry_collector_tails_a_file_into_a_pipeline() {
    otel_collector_on(server());
}

/// `the_opentelemetry_collector_tails_a_file_into_a_pipeline`, on `server`.
pub(crate) fn otel_collector_on(server: &Server) {
    let token = alice_on(server);
    let (out, _) = agent_job(server, &token, "otel-log-source", "collectors");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("app.log");
    let lines: String = (0..40)
        .map(|i| format!("{{\"level\":\"warn\",\"msg\":\"collected {i}\"}}\n"))
        .collect();
    std::fs::write(&file, lines).unwrap();
    let endpoint = format!("{}/v1/logs", server.url());
    let auth = format!("Authorization=Bearer {COLLECTOR_KEY}");
    let mut collector = Command::new(python())
        .arg(workspace().join("tests/peers/run_otelcol.py"))
        .args([
            "--log-file",
            file.to_str().unwrap(),
            "--endpoint",
            &endpoint,
            "--header",
            &auth,
        ])
        .args([
            "--workdir",
            dir.path().to_str().unwrap(),
            "--resource",
            "service.name=tailed",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("otelcol-contrib starts");
    let deadline = Instant::now() + Duration::from_secs(60);
    let rows = loop {
        let rows = rows(server, &token, &out);
        if rows.len() >= 40 || Instant::now() > deadline {
            break rows;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let _ = collector.kill();
    let _ = collector.wait();
    assert_eq!(rows.len(), 40, "{}", server.log());
    assert!(
        rows.iter()
            .all(|r| r["tags"]["service"] == json!(["tailed"])),
        "{:?}",
        rows[0]
    );
    assert!(
        rows.iter()
            .any(|r| r["message"].as_str().unwrap().contains("collected 39"))
    );
}

/// Logs acknowledged while the pipeline is stopped, then `kill -9` at once: the restarted
/// service keeps them, and the pipeline, started again, writes every one once (with those it
/// wrote live before).
#[test]
fn kill_9_right_after_the_answers_loses_no_acknowledged_event() {
    kill_9_right_after_the_answers_with(json!({"integrations": integrations()}));
}

/// `kill -9` of a service with `config` right after its intake answered: restarted, its job
/// reads every acknowledged event once.
pub(crate) fn kill_9_right_after_the_answers_with(config: Value) {
    let service = Restartable::with(json!({}), config);
    let mut server = service.start();
    let token = server.token("alice", "alice-secret");
    let (out, id) = agent_job(&server, &token, "datadog-log-agent-source", "dd-agents");
    let live = peer(
        "send_datadog.py",
        &[
            "--url",
            &server.url(),
            "--api-key",
            DD_KEY,
            "--count",
            "500",
            "--batch",
            "250",
            "--gzip",
            "--message-prefix",
            "live",
        ],
    );
    assert_eq!(live["sent"], 500, "{live}");
    wait_rows(&server, &token, &out, 500);
    set_desired(&server, &token, &id, "STOPPED");
    // More than a batch (`runner.batchEvents`, 8192) waits: the job reads it in batches of
    // whole requests.
    let sent = peer(
        "send_datadog.py",
        &[
            "--url",
            &server.url(),
            "--api-key",
            DD_KEY,
            "--count",
            "10000",
            "--batch",
            "1000",
            "--message-prefix",
            "durable",
        ],
    );
    assert_eq!(sent["statuses"], json!(vec![202; 10]), "{sent}");
    server.kill9();
    let server = service.start();
    let token = server.token("alice", "alice-secret");
    set_desired(&server, &token, &id, "RUNNING");
    let rows = settled(&server, &token, &out, 10_500);
    let mut expected = numbered("live", 500);
    expected.extend(numbered("durable", 10_000));
    expected.sort();
    assert_eq!(messages(&rows), expected);
}
