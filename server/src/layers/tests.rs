//! The layers in process, through the real router (`Router` + `oneshot`, no port): the
//! test-only routes of `routes.rs` panic and outlive a short deadline.

use std::sync::{Arc, Mutex, PoisonError};

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use tower::ServiceExt;
use tracing_subscriber::fmt::MakeWriter;

use crate::{AppState, ServiceConfig, SqliteStore, Synchronous};

/// What the service logged, as the `serve` command's subscriber writes it.
#[derive(Clone, Default)]
struct Log(Arc<Mutex<Vec<u8>>>);

impl Log {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap_or_else(PoisonError::into_inner)).into()
    }
}

impl std::io::Write for Log {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for Log {
    type Writer = Log;
    fn make_writer(&'a self) -> Log {
        self.clone()
    }
}

struct Answer {
    status: StatusCode,
    request_id: Option<String>,
    retry_after: Option<String>,
    body: String,
}

/// Runs `calls` on a router over a fresh database, on one thread with `log` capturing what
/// is logged, and returns each answer.
fn serve(request_timeout_ms: u64, calls: &[(&str, Option<&str>)]) -> (Vec<Answer>, String) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let log = Log::default();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(log.clone())
        .with_ansi(false)
        .with_max_level(tracing::Level::INFO)
        .finish();
    let answers = tracing::subscriber::with_default(subscriber, || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async {
            let store = SqliteStore::open(&dir.path().join("jobgraph.db"), Synchronous::Normal, 2)
                .expect("the store");
            let mut config = ServiceConfig::default();
            config.connections.request_timeout_ms = request_timeout_ms;
            let state = AppState::new(Arc::new(store), Arc::new(jobgraph_core::InProcess), config);
            let router: Router = crate::router(state);
            let mut answers = Vec::new();
            for (path, request_id) in calls {
                let mut request = Request::get(*path);
                if let Some(id) = request_id {
                    request = request.header("x-request-id", *id);
                }
                let response = router
                    .clone()
                    .oneshot(request.body(Body::empty()).expect("a request"))
                    .await
                    .expect("the router never fails");
                let header = |name: &str| {
                    response
                        .headers()
                        .get(name)
                        .and_then(|v| v.to_str().ok())
                        .map(str::to_owned)
                };
                let (status, request_id, retry_after) = (
                    response.status(),
                    header("x-request-id"),
                    header("retry-after"),
                );
                let body = axum::body::to_bytes(response.into_body(), 1 << 20)
                    .await
                    .expect("a body");
                answers.push(Answer {
                    status,
                    request_id,
                    retry_after,
                    body: String::from_utf8_lossy(&body).into(),
                });
            }
            answers
        })
    });
    (answers, log.text())
}

#[test]
fn a_panicking_handler_is_a_500_with_the_error_body_and_the_next_request_is_served() {
    let (answers, log) = serve(
        120_000,
        &[("/v1/test-only/panic", Some("panic-1")), ("/healthz", None)],
    );
    let panicked = &answers[0];
    assert_eq!(panicked.status, StatusCode::INTERNAL_SERVER_ERROR);
    let body: serde_json::Value = serde_json::from_str(&panicked.body).expect("a JSON body");
    assert_eq!(
        body["message"], "internal error: see the server's log",
        "{body}"
    );
    assert!(
        !panicked.body.contains("test-only handler panicked"),
        "the cause is never sent: {}",
        panicked.body
    );
    assert_eq!(answers[1].status, StatusCode::OK, "{}", answers[1].body);
    // The cause is logged, in the span of the request that panicked.
    let line = log
        .lines()
        .find(|l| l.contains("a handler panicked: a test-only handler panicked"))
        .unwrap_or_else(|| panic!("no line for the panic in {log}"));
    assert!(line.contains("request_id=panic-1"), "{line}");
    assert!(
        log.lines()
            .any(|l| l.contains("request_id=panic-1") && l.contains("status=500")),
        "{log}"
    );
}

#[test]
fn every_answer_and_its_log_line_carry_a_request_id() {
    let (answers, log) = serve(
        120_000,
        &[
            ("/healthz", Some("client-id.7:a_b")),
            ("/healthz", None),
            ("/healthz", Some("has space")),
            ("/healthz?secret=s3cr3t", Some(&"x".repeat(65))),
        ],
    );
    assert_eq!(answers[0].request_id.as_deref(), Some("client-id.7:a_b"));
    for (i, answer) in answers.iter().enumerate() {
        assert_eq!(answer.status, StatusCode::OK, "{i}: {}", answer.body);
        let id = answer.request_id.as_deref().expect("an x-request-id");
        if i > 0 {
            // Made by the service when none came, or the one that came is not plain: the
            // process's random prefix (8 characters), then a counter.
            assert!(id.len() >= 12, "{i}: {id}");
            assert!(
                id.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            );
        }
        let line = log
            .lines()
            .find(|l| l.contains(&format!("request_id={id}")))
            .unwrap_or_else(|| panic!("{i}: no log line with {id} in {log}"));
        for field in ["method=GET", "path=/healthz", "status=200", "latency_ms="] {
            assert!(line.contains(field), "{field} missing in {line}");
        }
    }
    assert_ne!(answers[1].request_id, answers[2].request_id);
    assert!(
        !log.contains("s3cr3t"),
        "query strings are never logged: {log}"
    );
    assert!(!log.contains("has space"), "{log}");
}

#[test]
fn a_request_not_answered_by_the_deadline_is_a_503_and_the_next_is_served() {
    let started = std::time::Instant::now();
    let (answers, log) = serve(200, &[("/v1/test-only/slow", None), ("/healthz", None)]);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "the slow handler (30 s) was not cut at the deadline"
    );
    let late = &answers[0];
    assert_eq!(
        late.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        late.body
    );
    assert_eq!(late.retry_after.as_deref(), Some("1"));
    assert!(
        late.body
            .contains("not answered within 200 ms (connections.requestTimeoutMs)"),
        "{}",
        late.body
    );
    assert_eq!(answers[1].status, StatusCode::OK);
    assert!(log.contains("status=503"), "{log}");
}
