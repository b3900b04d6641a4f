//! The tower layers around the routes, outermost first:
//!
//! 1. **A request id**: the caller's `x-request-id` when it is 1–64 characters of letters,
//!    digits and `-_.:`, else a new random one; sent back in the answer's `x-request-id`
//!    (tower-http's `SetRequestId` / `PropagateRequestId`).
//! 2. **One log line per request** (tower-http's `TraceLayer`) in a `request` span holding the
//!    method, the path (never the query string), the request id and, once it is known, the
//!    caller's organization; every line logged while the request is served is in that span,
//!    so it names the request id too. Tokens and secrets travel in headers and bodies, which
//!    are never logged.
//! 3. **A panic in a handler** becomes a 500 with the usual error body (tower-http's
//!    `CatchPanic`); its message is logged, never sent, and the process serves the next
//!    request.
//! 4. **A deadline** (`connections.requestTimeoutMs`): a request not answered in time is a 503
//!    with the usual error body and `Retry-After: 1`, and its work is dropped. The routes that
//!    stream a body for as long as it keeps arriving (a dataset load) are outside it: their
//!    own limit is `connections.bodyReadTimeoutMs` between parts ([`Deadline::apply`]).
//!
//! Body limits are per route: `maxBodyBytes` by default ([`axum::extract::DefaultBodyLimit`]),
//! `lake.maxLoadBytes` for a dataset load.

use std::any::Any;
use std::time::Duration;

use axum::Router;
use axum::error_handling::HandleErrorLayer;
use axum::extract::Request;
use axum::http::{HeaderName, HeaderValue};
use axum::response::{IntoResponse, Response};
use tower::ServiceBuilder;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::request_id::{
    MakeRequestId, PropagateRequestIdLayer, RequestId, SetRequestIdLayer,
};
use tower_http::trace::TraceLayer;
use tracing::Span;

use crate::error::ApiError;
use crate::ids::random_token;

/// The request id header, read and sent.
pub(crate) const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Puts `router` inside the request id, the log line and the panic handler (1–3 above).
pub(crate) fn around(router: Router) -> Router {
    router.layer(
        ServiceBuilder::new()
            .map_request(drop_unusable_request_id)
            .layer(SetRequestIdLayer::new(REQUEST_ID, NewRequestId))
            .layer(
                TraceLayer::new_for_http()
                    .make_span_with(request_span)
                    .on_request(())
                    .on_response(log_response)
                    .on_failure(()),
            )
            .layer(PropagateRequestIdLayer::new(REQUEST_ID))
            .layer(CatchPanicLayer::custom(panic_response)),
    )
}

/// The deadline of a request (4 above).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Deadline(pub Duration);

impl Deadline {
    /// `router`'s routes answered within the deadline or 503.
    pub(crate) fn apply<S: Clone + Send + Sync + 'static>(self, router: Router<S>) -> Router<S> {
        let ms = self.0.as_millis();
        router.layer(
            ServiceBuilder::new()
                .layer(HandleErrorLayer::new(move |_: tower::BoxError| async move {
                    ApiError::Overloaded(format!(
                        "the request was not answered within {ms} ms (connections.requestTimeoutMs); its work was dropped: retry, or send less at once"
                    ))
                    .into_response()
                }))
                .timeout(self.0),
        )
    }
}

/// Records the caller's organization on the request's span, for its log line.
pub(crate) fn record_organization(organization: &str) {
    Span::current().record("org", tracing::field::display(organization));
}

#[derive(Clone, Copy)]
struct NewRequestId;

/// Request ids: a random prefix drawn once per process, then a counter, so ids are unique in
/// the process, differ between processes (replicas) and cost no system call per request (a
/// `getrandom` per request was ~1.4 % of a template read's CPU time, seen with `perf`).
fn next_request_id() -> Option<String> {
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicU64, Ordering};
    static PREFIX: OnceLock<String> = OnceLock::new();
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let prefix = PREFIX.get_or_init(|| random_token(6).unwrap_or_else(|_| "local-".into()));
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    Some(format!("{prefix}{n:04x}"))
}

impl MakeRequestId for NewRequestId {
    fn make_request_id<B>(&mut self, _: &axum::http::Request<B>) -> Option<RequestId> {
        let id = next_request_id()?;
        HeaderValue::from_str(&id).ok().map(RequestId::new)
    }
}

/// A caller's request id is kept only when it is short and plain (it goes into log lines).
fn drop_unusable_request_id(mut request: Request) -> Request {
    let usable = request.headers().get(&REQUEST_ID).is_some_and(|v| {
        let bytes = v.as_bytes();
        (1..=64).contains(&bytes.len())
            && bytes
                .iter()
                .all(|b| b.is_ascii_alphanumeric() || b"-_.:".contains(b))
    });
    if !usable {
        request.headers_mut().remove(&REQUEST_ID);
    }
    request
}

fn request_span<B>(request: &axum::http::Request<B>) -> Span {
    let id = request
        .headers()
        .get(&REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("-");
    tracing::info_span!(
        target: "jobgraph::request",
        "request",
        method = %request.method(),
        path = %request.uri().path(),
        request_id = %id,
        org = tracing::field::Empty,
    )
}

fn log_response<B>(response: &axum::http::Response<B>, latency: Duration, _: &Span) {
    tracing::info!(
        target: "jobgraph::request",
        status = response.status().as_u16(),
        latency_ms = format_args!("{:.2}", latency.as_secs_f64() * 1000.0),
    );
}

fn panic_response(panic: Box<dyn Any + Send + 'static>) -> Response {
    let message = panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_owned());
    ApiError::Internal(format!("a handler panicked: {message}")).into_response()
}

#[cfg(test)]
mod tests;
