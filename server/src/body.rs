//! Reading requests: JSON bodies (415 for another media type, 413 over the size limit, 400 for
//! bad JSON) and query strings with repeated keys.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{HeaderMap, header};
use http_body_util::BodyExt;
use serde_json::Value;

use crate::error::ApiError;
use crate::state::AppState;

/// Whether the request says its body is JSON (`application/json` or `…+json`).
pub fn is_json(headers: &HeaderMap) -> bool {
    media_type(headers).is_some_and(|m| m == "application/json" || m.ends_with("+json"))
}

/// The request's media type, lowercase, without parameters.
pub fn media_type(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::CONTENT_TYPE)?.to_str().ok()?;
    Some(value.split(';').next()?.trim().to_ascii_lowercase())
}

/// The raw body, within the configured limit: [`read_limited`] with `maxBodyBytes`.
pub async fn read_bytes(request: Request, state: &AppState) -> Result<Bytes, ApiError> {
    read_limited(request, state, state.config.max_body_bytes).await
}

/// The raw body, at most `limit` bytes:
/// - a `Content-Length` over `limit` is a 413 at once, before any of the body is read;
/// - the body counts against the budget of bodies in memory for its `Content-Length` (or
///   `limit` without one) while it is read and parsed: past the budget, 503 at once;
/// - it must arrive within the body-read timeout, else 408 (the connection is closed, the part
///   read is freed);
/// - a body longer than it said, or than `limit` without a `Content-Length`: 413.
pub async fn read_limited(
    request: Request,
    state: &AppState,
    limit: usize,
) -> Result<Bytes, ApiError> {
    let declared = content_length(request.headers())?;
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(ApiError::TooLarge(limit));
    }
    let reserved = declared.map_or(limit, |n| usize::try_from(n).unwrap_or(limit));
    let _held = state.bodies.reserve(reserved)?;
    let connections = &state.config.connections;
    let timeout = std::time::Duration::from_millis(connections.body_read_timeout_ms.max(1));
    let body = http_body_util::Limited::new(request.into_body(), limit);
    match tokio::time::timeout(timeout, body.collect()).await {
        Err(_) => Err(ApiError::RequestTimeout(format!(
            "the request body did not arrive within {} ms (connections.bodyReadTimeoutMs); send it at once",
            connections.body_read_timeout_ms
        ))),
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
        Ok(Err(error)) if error.is::<http_body_util::LengthLimitError>() => {
            Err(ApiError::TooLarge(limit))
        }
        Ok(Err(error)) => Err(ApiError::BadRequest(format!(
            "cannot read the request body: {error}"
        ))),
    }
}

/// The request's `Content-Length`, if it has one; a malformed one is a 400.
fn content_length(headers: &HeaderMap) -> Result<Option<u64>, ApiError> {
    let Some(value) = headers.get(header::CONTENT_LENGTH) else {
        return Ok(None);
    };
    value
        .to_str()
        .ok()
        .and_then(|text| text.trim().parse::<u64>().ok())
        .map(Some)
        .ok_or_else(|| ApiError::BadRequest("the Content-Length header is not a number".into()))
}

/// A JSON request body: `Content-Type: application/json` (else 415), within the size limit
/// (else 413), valid JSON (else 400).
#[derive(Debug)]
pub struct JsonBody(pub Value);

impl FromRequest<AppState> for JsonBody {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        if !is_json(request.headers()) {
            return Err(ApiError::UnsupportedMediaType(format!(
                "the request body must be JSON (Content-Type: application/json), not {}",
                media_type(request.headers()).unwrap_or_else(|| "unspecified".into())
            )));
        }
        let bytes = read_bytes(request, state).await?;
        parse_body(&bytes)
            .map(JsonBody)
            .map_err(|e| ApiError::BadRequest(format!("the request body is not valid JSON: {e}")))
    }
}

/// A request body read strictly, as every other entry point reads JSON
/// ([`jobgraph_core::parse_json`]): UTF-8, a leading byte-order mark skipped, a key repeated in
/// one object refused (instead of the last one silently winning), nesting bounded.
pub fn parse_body(bytes: &[u8]) -> Result<Value, jobgraph_core::JsonError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let before = &bytes[..e.valid_up_to()];
        let line = before.iter().filter(|b| **b == b'\n').count() + 1;
        let column = before.len()
            - before
                .iter()
                .rposition(|b| *b == b'\n')
                .map_or(0, |i| i + 1)
            + 1;
        jobgraph_core::JsonError {
            message: "invalid UTF-8".into(),
            line,
            column,
        }
    })?;
    jobgraph_core::parse_json(text)
}

/// The query string's `key=value` pairs, in order, repeated keys kept.
#[derive(Debug, Default)]
pub struct QueryPairs(pub Vec<(String, String)>);

impl QueryPairs {
    /// Parses a raw query string.
    pub fn parse(query: Option<&str>) -> Result<Self, ApiError> {
        serde_urlencoded::from_str(query.unwrap_or(""))
            .map(QueryPairs)
            .map_err(|e| ApiError::BadRequest(format!("cannot read the query string: {e}")))
    }

    /// Every value of `key`, split at commas as well (`state=A,B` = `state=A&state=B`).
    pub fn all(&self, key: &str) -> Vec<String> {
        self.0
            .iter()
            .filter(|(k, _)| k == key)
            .flat_map(|(_, v)| v.split(',').map(str::trim).map(str::to_owned))
            .filter(|v| !v.is_empty())
            .collect()
    }

    /// The one value of the single-valued parameter `key` (`None` when absent).
    ///
    /// A single-valued parameter given twice (`version=1&version=2`) is a 400 naming it,
    /// rather than one of the values winning silently.
    pub fn single(&self, key: &str) -> Result<Option<&str>, ApiError> {
        let mut values = self.0.iter().filter(|(k, _)| k == key).map(|(_, v)| v);
        let first = values.next();
        if values.next().is_some() {
            return Err(ApiError::BadRequest(format!(
                "query parameter `{key}` is given more than once: send it once"
            )));
        }
        Ok(first.map(String::as_str))
    }

    /// `key` as a boolean (`true` or `false`); absent = `None`.
    pub fn flag(&self, key: &str) -> Result<Option<bool>, ApiError> {
        match self.single(key)? {
            None => Ok(None),
            Some("true") => Ok(Some(true)),
            Some("false") => Ok(Some(false)),
            Some(other) => Err(ApiError::BadRequest(format!(
                "query parameter `{key}` must be true or false, not {other:?}"
            ))),
        }
    }

    /// `key` as a positive integer; absent = `None`.
    pub fn positive(&self, key: &str) -> Result<Option<u64>, ApiError> {
        match self.single(key)? {
            None => Ok(None),
            Some(text) => match text.parse::<u64>() {
                Ok(n) if n > 0 && text.bytes().all(|b| b.is_ascii_digit()) => Ok(Some(n)),
                _ => Err(ApiError::BadRequest(format!(
                    "query parameter `{key}` must be a positive integer, not {text:?}"
                ))),
            },
        }
    }
}

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for QueryPairs {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _state: &S,
    ) -> Result<Self, Self::Rejection> {
        QueryPairs::parse(parts.uri.query())
    }
}
