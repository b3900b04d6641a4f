//! [`ClientError`]: why a call failed, with what the caller needs to act on it and never a
//! token or secret.

use std::time::Duration;

/// Why a call to the service failed.
///
/// Every variant names the request (method and path, or the URL tried) and keeps the
/// service's own text. Tokens and secrets travel only in headers and bodies, which no variant
/// holds.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClientError {
    /// The service answered with an error status (other than a 401 handled by the client).
    #[error("{method} {path}: {status} {}: {message}", reason(*status))]
    Api {
        /// The request's method.
        method: String,
        /// The request's path (without the query string).
        path: String,
        /// The HTTP status.
        status: u16,
        /// The service's `error` text (or `message`, or the start of a body that is not an
        /// error body).
        message: String,
        /// The service's stable error code (`TEMPLATE_NOT_FOUND`, …), when it gave one.
        code: Option<String>,
        /// On a 409: the current version of the template or job.
        current_version: Option<u64>,
    },
    /// The service refused the access token: after a new token and one retry when the first
    /// token came from a cache, at once when it was new.
    #[error("{method} {path}: 401 Unauthorized: {message}")]
    Unauthorized {
        /// The request's method.
        method: String,
        /// The request's path.
        path: String,
        /// The service's text.
        message: String,
    },
    /// The token endpoint refused the client credentials (or answered with another error).
    #[error("token request to {url} failed: {status} {}: {message}", reason(*status))]
    TokenRejected {
        /// The token endpoint.
        url: String,
        /// The HTTP status (401 for a wrong client id or secret).
        status: u16,
        /// The endpoint's text (`error_description`, `message` or `error`).
        message: String,
    },
    /// A new token is needed and no client secret was given.
    #[error("no client secret for client {client_id:?}: a new access token is needed")]
    MissingSecret {
        /// The client id.
        client_id: String,
    },
    /// No connection could be made, or it broke before an answer came.
    #[error("cannot reach the service at {url}: {reason}")]
    Unreachable {
        /// The request's method.
        method: String,
        /// The URL tried (without the query string).
        url: String,
        /// What failed (connection refused, DNS, TLS, …).
        reason: String,
    },
    /// No answer within the timeout.
    #[error("{method} {url}: no answer within {} s", timeout.as_secs_f64())]
    Timeout {
        /// The request's method.
        method: String,
        /// The URL tried (without the query string).
        url: String,
        /// The timeout that passed.
        timeout: Duration,
    },
    /// The answer was not what the endpoint answers (not JSON, another shape).
    #[error("{method} {path}: unexpected answer ({status}): {reason}")]
    InvalidResponse {
        /// The request's method.
        method: String,
        /// The request's path.
        path: String,
        /// The HTTP status.
        status: u16,
        /// What is wrong with it.
        reason: String,
    },
    /// The client is configured wrongly (an invalid URL, …).
    #[error("invalid client configuration: {0}")]
    Config(String),
}

impl ClientError {
    /// The HTTP status the service answered with, when it answered.
    pub fn status(&self) -> Option<u16> {
        match self {
            ClientError::Api { status, .. }
            | ClientError::TokenRejected { status, .. }
            | ClientError::InvalidResponse { status, .. } => Some(*status),
            ClientError::Unauthorized { .. } => Some(401),
            _ => None,
        }
    }

    /// Whether the service answered 404 (no such template, version or job).
    pub fn is_not_found(&self) -> bool {
        self.status() == Some(404)
    }
}

/// The reason phrase of a status.
pub(crate) fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        202 => "Accepted",
        204 => "No Content",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        413 => "Payload Too Large",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Entity",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "Error",
    }
}
