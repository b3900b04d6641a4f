//! One structured log line per request: method, path (never the query string), status,
//! latency and organization. Tokens and secrets travel in headers and bodies, which are never
//! logged.

use std::time::Instant;

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;

use super::auth::RequestOrg;

/// The logging middleware.
pub async fn log_request(mut request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let org = RequestOrg::default();
    request.extensions_mut().insert(org.clone());
    let response = next.run(request).await;
    let latency_ms = started.elapsed().as_secs_f64() * 1000.0;
    tracing::info!(
        target: "jobgraph::request",
        method = %method,
        path = %path,
        status = response.status().as_u16(),
        latency_ms = format_args!("{latency_ms:.2}"),
        org = %org.0.get().map_or("-", String::as_str),
    );
    response
}
