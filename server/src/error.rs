//! [`ApiError`]: every failure a handler answers with, and its HTTP form.
//!
//! Every error body is JSON `{"error": "…", "message": "…"}` (the same text twice: `error` is
//! the interface document's field, `message` the one the public client prints), plus
//! `currentVersion` on a version conflict and `code` on a resolution error. A 500 says nothing
//! about its cause; the cause goes to the server's log.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::store::StoreError;

pub use jobgraph_sdk::api::ErrorBody;

/// A failed request.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: the request is wrong; the text says how (naming the field).
    #[error("{0}")]
    BadRequest(String),
    /// 400: a resolution or template test failed (contract message and code).
    #[error("{message}")]
    Resolution {
        /// The contract message.
        message: String,
        /// `jobgraph_core::Error::code`.
        code: &'static str,
    },
    /// 401 for `/v1`: no valid bearer token; `invalid_token` when one was sent.
    #[error("{message}")]
    Unauthorized {
        /// What is wrong with the credentials.
        message: String,
        /// Whether a token was presented (then `error="invalid_token"` in the challenge).
        token_sent: bool,
    },
    /// An RFC 6749 token-endpoint error (`invalid_client` 401, `invalid_request` 400, …).
    #[error("{code}: {description}")]
    OAuth {
        /// The status.
        status: StatusCode,
        /// The RFC 6749 code.
        code: &'static str,
        /// What is wrong.
        description: String,
    },
    /// 403: the caller's roles do not grant a permission; the text names it, the caller's
    /// roles and who can grant it.
    #[error("{0}")]
    Forbidden(String),
    /// 404.
    #[error("{0}")]
    NotFound(String),
    /// 405.
    #[error("method not allowed")]
    MethodNotAllowed,
    /// 409 with the current version.
    #[error("{message}")]
    Conflict {
        /// What conflicts.
        message: String,
        /// The current version, when a version check failed.
        current_version: Option<u64>,
    },
    /// 413.
    #[error("the request body is larger than the limit of {0} bytes")]
    TooLarge(usize),
    /// 415.
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// 408: the body did not arrive in time; the connection is closed.
    #[error("{0}")]
    RequestTimeout(String),
    /// 503 with `Retry-After: 1`: the service is at a budget of its own (request bodies in
    /// memory); the text says which.
    #[error("{0}")]
    Overloaded(String),
    /// 429 from the token endpoint, with `Retry-After` (seconds) and the RFC 6749 error body
    /// (`error: "slow_down"`): too many secret verifications asked of the source address or
    /// for the client id, or every verification thread busy.
    #[error("slow_down: {description}")]
    SlowDown {
        /// Why, and when to retry.
        description: String,
        /// Seconds to wait.
        retry_after: u64,
    },
    /// 429 with `Retry-After` (seconds).
    #[error("{message}")]
    TooManyRequests {
        /// Why.
        message: String,
        /// Seconds to wait.
        retry_after: u64,
    },
    /// 503 with `Retry-After: 1`: the database cannot be reached now; the cause is logged,
    /// never sent. The service recovers by itself when the database is back.
    #[error("the service's database is unavailable; retry shortly")]
    Unavailable(String),
    /// 500; the cause is logged, never sent.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiError {
    /// The status it is answered with.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) | ApiError::Resolution { .. } => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized { .. } => StatusCode::UNAUTHORIZED,
            ApiError::OAuth { status, .. } => *status,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Conflict { .. } => StatusCode::CONFLICT,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::RequestTimeout(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::Overloaded(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::TooManyRequests { .. } | ApiError::SlowDown { .. } => {
                StatusCode::TOO_MANY_REQUESTS
            }
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The body it is answered with.
    pub fn body(&self) -> ErrorBody {
        let text = match self {
            ApiError::Internal(_) => "internal error: see the server's log".to_owned(),
            other => other.to_string(),
        };
        let mut body = ErrorBody {
            error: text.clone(),
            message: text,
            error_description: None,
            code: None,
            current_version: None,
        };
        match self {
            ApiError::OAuth {
                code, description, ..
            } => {
                body.error = (*code).to_owned();
                body.message.clone_from(description);
                body.error_description = Some(description.clone());
            }
            ApiError::SlowDown { description, .. } => {
                "slow_down".clone_into(&mut body.error);
                body.message.clone_from(description);
                body.error_description = Some(description.clone());
            }
            ApiError::Resolution { code, .. } => body.code = Some((*code).to_owned()),
            ApiError::Forbidden(_) => body.code = Some("FORBIDDEN".to_owned()),
            ApiError::Conflict {
                current_version, ..
            } => body.current_version = *current_version,
            _ => {}
        }
        body
    }

    /// A 404 for a template id.
    pub fn template_not_found(id: &str) -> Self {
        ApiError::NotFound(format!("no template with id {id:?}"))
    }

    /// A 404 for a job id.
    pub fn job_not_found(id: &str) -> Self {
        ApiError::NotFound(format!("no job with id {id:?}"))
    }
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::NotFound => ApiError::NotFound("not found".into()),
            StoreError::Conflict { current } => ApiError::Conflict {
                message: format!("version conflict: the current version is {current}"),
                current_version: Some(current),
            },
            StoreError::Duplicate(message) => ApiError::Conflict {
                message,
                current_version: None,
            },
            StoreError::Unavailable(message) => ApiError::Unavailable(message),
            StoreError::Backend(message) => ApiError::Internal(message),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        match &self {
            ApiError::Internal(cause) => {
                tracing::error!(target: "jobgraph::server", %cause, "request failed");
            }
            ApiError::Unavailable(cause) => {
                tracing::warn!(target: "jobgraph::server", %cause, "database unavailable");
            }
            _ => {}
        }
        let mut response = (self.status(), axum::Json(self.body())).into_response();
        let headers = response.headers_mut();
        match &self {
            ApiError::Unauthorized { token_sent, .. } => {
                let challenge = if *token_sent {
                    "Bearer error=\"invalid_token\""
                } else {
                    "Bearer"
                };
                headers.insert(
                    header::WWW_AUTHENTICATE,
                    HeaderValue::from_static(challenge),
                );
            }
            ApiError::OAuth { status, .. } => {
                // RFC 6749 §5.1/§5.2: token-endpoint answers are never cached.
                headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
                headers.insert(header::PRAGMA, HeaderValue::from_static("no-cache"));
                if *status == StatusCode::UNAUTHORIZED {
                    headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Basic"));
                }
            }
            ApiError::TooManyRequests { retry_after, .. } => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from(*retry_after));
            }
            ApiError::SlowDown { retry_after, .. } => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from(*retry_after));
                headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
                headers.insert(header::PRAGMA, HeaderValue::from_static("no-cache"));
            }
            ApiError::Unavailable(_) | ApiError::Overloaded(_) => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
            }
            // The body was not read (or not whole): the connection cannot carry another request.
            ApiError::TooLarge(_) | ApiError::RequestTimeout(_) => {
                headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
            }
            _ => {}
        }
        response
    }
}
