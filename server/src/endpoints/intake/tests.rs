//! The intake's answers in process: keys, protocols, bad bodies (nothing taken), the budget.
//! The real senders (the Datadog client, the OpenTelemetry SDK and collector, the Splunk
//! handler) are in `cli/tests/serve_intake.rs`.

use std::io::Write;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use tower::ServiceExt;

use crate::intake_log::IntakeLog;
use crate::state::{AppState, ServiceConfig};
use crate::store::{SqliteStore, Synchronous};

const DD_KEY: &str = "dd-key-0123456789abcdef";
const OTLP_KEY: &str = "otlp-key-0123456789abcdef";
const HEC_KEY: &str = "hec-key-0123456789abcdef";

struct Fixture {
    router: Router,
    log: IntakeLog,
    _dir: tempfile::TempDir,
}

fn fixture(change: impl FnOnce(&mut ServiceConfig)) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(&dir.path().join("jobgraph.db"), Synchronous::Normal, 2).unwrap();
    let mut config = ServiceConfig {
        integrations: serde_json::from_value(json!([
        {"id": "dd-prod", "name": "Datadog", "type": "datadog", "ingestKey": DD_KEY},
        {"id": "otel", "name": "OpenTelemetry", "type": "otlp", "ingestKey": OTLP_KEY},
        {"id": "hec", "name": "Splunk", "type": "splunk", "ingestKey": HEC_KEY},
        {"id": "keyless", "name": "No key", "type": "datadog"}
        ]))
        .unwrap(),
        ..ServiceConfig::default()
    };
    change(&mut config);
    let log = IntakeLog::open(&dir.path().join("intake.redb")).unwrap();
    let state = AppState::new(Arc::new(store), Arc::new(jobgraph_core::InProcess), config)
        .with_intake(crate::intake_log::Intake::Local(log.clone()));
    Fixture {
        router: crate::router(state),
        log,
        _dir: dir,
    }
}

async fn call(
    f: &Fixture,
    path: &str,
    headers: &[(&str, &str)],
    body: Vec<u8>,
) -> (StatusCode, Option<String>, Vec<u8>) {
    let mut request = Request::post(path);
    for (k, v) in headers {
        request = request.header(*k, *v);
    }
    let response = f
        .router
        .clone()
        .oneshot(request.body(Body::from(body)).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let retry = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_owned());
    let body = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .unwrap()
        .to_vec();
    (status, retry, body)
}

fn events(f: &Fixture, stream: &str) -> Vec<Value> {
    f.log
        .read(stream, 0, usize::MAX)
        .unwrap()
        .iter()
        .flat_map(|e| {
            e.ndjson
                .split(|b| *b == b'\n')
                .filter(|l| !l.is_empty())
                .map(|l| serde_json::from_slice::<Value>(l).unwrap())
                .collect::<Vec<_>>()
        })
        .collect()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

#[tokio::test]
async fn datadog_logs_are_taken_gzipped_with_ids_and_times_into_their_integrations_stream() {
    let f = fixture(|_| {});
    let body = json!([
        {"message": "disk full", "status": "error", "hostname": "web-1", "service": "api", "ddtags": "env:prod"},
        {"message": "ok", "timestamp": 1_764_000_000_000_i64}
    ]);
    let (status, _, answer) = call(
        &f,
        "/api/v2/logs",
        &[
            ("dd-api-key", DD_KEY),
            ("content-encoding", "gzip"),
            ("content-type", "application/json"),
        ],
        gzip(body.to_string().as_bytes()),
    )
    .await;
    assert_eq!(
        status,
        StatusCode::ACCEPTED,
        "{}",
        String::from_utf8_lossy(&answer)
    );
    assert_eq!(answer, b"{}");
    let taken = events(&f, "dd-prod");
    assert_eq!(taken.len(), 2);
    assert_eq!(taken[0]["message"], "disk full");
    assert_eq!(taken[0]["severity"], 17);
    assert_eq!(taken[0]["tags"]["host"], json!(["web-1"]));
    assert_eq!(taken[0]["tags"]["env"], json!(["prod"]));
    assert!(taken[0]["id"].as_str().unwrap().ends_with("-0"));
    assert_eq!(taken[0]["eventTimestamp"], taken[0]["receivedTimestamp"]);
    assert_eq!(taken[1]["eventTimestamp"], 1_764_000_000_000_i64);
    assert_ne!(taken[0]["id"], taken[1]["id"]);
}

#[tokio::test]
async fn keys_decide_the_integration_and_a_wrong_or_missing_key_takes_nothing() {
    let f = fixture(|_| {});
    let body = br#"[{"message":"a"}]"#.to_vec();
    let (status, _, answer) = call(&f, "/api/v2/logs", &[], body.clone()).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let answer: Value = serde_json::from_slice(&answer).unwrap();
    assert!(
        answer["errors"][0]["detail"]
            .as_str()
            .unwrap()
            .contains("DD-API-KEY"),
        "{answer}"
    );
    let (status, _, _) = call(
        &f,
        "/api/v2/logs",
        &[("dd-api-key", "not-a-key-of-ours-at-all")],
        body.clone(),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // The OTLP integration's key on Datadog's path: refused, saying where it belongs.
    let (status, _, answer) = call(
        &f,
        "/api/v2/logs",
        &[("dd-api-key", OTLP_KEY)],
        body.clone(),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(String::from_utf8_lossy(&answer).contains("POST /v1/logs"));
    // The key may be in the query, as Datadog allows.
    let path = format!("/api/v2/logs?dd-api-key={DD_KEY}");
    let (status, _, _) = call(&f, &path, &[], body).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    assert_eq!(events(&f, "dd-prod").len(), 1);
    assert!(events(&f, "otel").is_empty());
}

#[tokio::test]
async fn a_bad_body_is_refused_in_the_protocols_words_and_nothing_of_it_is_taken() {
    let f = fixture(|_| {});
    // The second log is not an object: the first is not taken either.
    let (status, _, answer) = call(
        &f,
        "/api/v2/logs",
        &[("dd-api-key", DD_KEY)],
        br#"[{"message":"fine"}, 42]"#.to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let answer: Value = serde_json::from_slice(&answer).unwrap();
    assert_eq!(answer["errors"][0]["status"], "400");
    let (status, _, _) = call(
        &f,
        "/api/v2/logs",
        &[("dd-api-key", DD_KEY), ("content-encoding", "gzip")],
        b"not gzip".to_vec(),
    )
    .await;
    assert!(status.is_client_error());
    let (status, _, answer) = call(
        &f,
        "/services/collector/event",
        &[("authorization", &format!("Splunk {HEC_KEY}"))],
        br#"{"event":"one"}{"time":1}"#.to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let answer: Value = serde_json::from_slice(&answer).unwrap();
    assert_eq!(
        (
            answer["code"].as_u64(),
            answer["invalid-event-number"].as_u64()
        ),
        (Some(12), Some(1))
    );
    assert!(events(&f, "dd-prod").is_empty());
    assert!(events(&f, "hec").is_empty());
}

#[tokio::test]
async fn otlp_json_and_splunk_events_and_raw_lines_are_taken() {
    let f = fixture(|_| {});
    let otlp = json!({"resourceLogs": [{
        "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "checkout"}}]},
        "scopeLogs": [{"logRecords": [{
            "timeUnixNano": "1764000000123000000", "severityNumber": 13,
            "body": {"stringValue": "slow"},
            "traceId": "5b8efff798038103d269b633813fc60c", "spanId": "eee19b7ec3c1b174"
        }]}]
    }]});
    let (status, _, answer) = call(
        &f,
        "/v1/logs",
        &[
            ("authorization", &format!("Bearer {OTLP_KEY}")),
            ("content-type", "application/json"),
        ],
        otlp.to_string().into_bytes(),
    )
    .await;
    assert_eq!(
        status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&answer)
    );
    let taken = events(&f, "otel");
    assert_eq!(taken[0]["message"], "slow");
    assert_eq!(taken[0]["eventTimestamp"], 1_764_000_000_123_i64);
    assert_eq!(taken[0]["tags"]["service"], json!(["checkout"]));
    let (status, _, _) = call(
        &f,
        "/v1/logs",
        &[
            ("authorization", &format!("Bearer {OTLP_KEY}")),
            ("content-type", "text/plain"),
        ],
        b"x".to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);

    let auth = format!("Splunk {HEC_KEY}");
    let (status, _, answer) = call(
        &f,
        "/services/collector/event",
        &[("authorization", &auth)],
        br#"{"event":"one","host":"h1"} {"event":{"message":"two","level":"warn"}}"#.to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(answer, br#"{"text":"Success","code":0}"#);
    let (status, _, _) = call(
        &f,
        "/services/collector/raw?host=h2&sourcetype=syslog",
        &[("authorization", &auth)],
        b"line one\r\nline two\n\n".to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let taken = events(&f, "hec");
    let messages: Vec<_> = taken
        .iter()
        .map(|e| e["message"].as_str().unwrap())
        .collect();
    assert_eq!(messages, ["one", "two", "line one", "line two"]);
    assert_eq!(taken[3]["tags"]["host"], json!(["h2"]));
    let (status, _, answer) = call(
        &f,
        "/services/collector/event",
        &[("authorization", "Bearer x")],
        b"{}".to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(serde_json::from_slice::<Value>(&answer).unwrap()["code"], 3);
}

#[tokio::test]
async fn past_the_disk_budget_intake_says_retry_later_and_takes_nothing() {
    let f = fixture(|c| c.intake.max_buffered_bytes = 400);
    let body = json!([{"message": "x".repeat(100)}])
        .to_string()
        .into_bytes();
    let (status, _, _) = call(&f, "/api/v2/logs", &[("dd-api-key", DD_KEY)], body.clone()).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    let mut refused = None;
    for _ in 0..5 {
        let answer = call(&f, "/api/v2/logs", &[("dd-api-key", DD_KEY)], body.clone()).await;
        if answer.0 != StatusCode::ACCEPTED {
            refused = Some(answer);
            break;
        }
    }
    let (status, retry, _) = refused.expect("refused once the budget is reached");
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(retry.as_deref(), Some("5"));
    let kept = events(&f, "dd-prod").len();
    let big = json!({"event": "y".repeat(300)}).to_string().into_bytes();
    let hec = call(
        &f,
        "/services/collector/event",
        &[("authorization", &format!("Splunk {HEC_KEY}"))],
        big,
    )
    .await;
    assert_eq!(
        (hec.0, hec.1.as_deref()),
        (StatusCode::SERVICE_UNAVAILABLE, Some("5"))
    );
    assert_eq!(events(&f, "dd-prod").len(), kept);
}

#[tokio::test]
async fn one_integration_past_its_share_is_refused_and_the_others_are_taken() {
    let f = fixture(|c| c.intake.max_buffered_bytes_per_integration = Some(400));
    let body = json!([{"message": "x".repeat(100)}])
        .to_string()
        .into_bytes();
    let mut statuses = Vec::new();
    for _ in 0..6 {
        statuses.push(call(&f, "/api/v2/logs", &[("dd-api-key", DD_KEY)], body.clone()).await);
    }
    let refused = statuses
        .iter()
        .find(|(status, _, _)| *status != StatusCode::ACCEPTED)
        .expect("refused once its share is reached");
    assert_eq!(refused.0, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(refused.1.as_deref(), Some("5"));
    let detail = serde_json::from_slice::<Value>(&refused.2).unwrap()["errors"][0]["detail"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        detail.contains("\"dd-prod\"") && detail.contains("maxBufferedBytesPerIntegration"),
        "{detail}"
    );
    // Another integration is still taken.
    let hec = call(
        &f,
        "/services/collector/event",
        &[("authorization", &format!("Splunk {HEC_KEY}"))],
        json!({"event": "from splunk"}).to_string().into_bytes(),
    )
    .await;
    assert_eq!(hec.0, StatusCode::OK);
}
