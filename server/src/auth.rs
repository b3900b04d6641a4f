//! Authentication: client secrets (Argon2id), access tokens (opaque, stored as SHA-256), the
//! token endpoint `POST /oauth/token`, and the [`Caller`] extractor that guards `/v1`.
//!
//! Tokens are 32 random bytes (URL-safe base64, 43 characters): opaque, so that revoking one
//! is deleting a row and nothing about the caller can be read from it. The database keeps
//! their SHA-256 only (a copy of the database lets no one call the API); the expiry is
//! checked on every request; they survive restarts because they live in the store. A
//! process-wide cache avoids a database read per request.
//!
//! Secrets are verified on a few threads of their own (`hash_pool`), after the request's
//! source address and client id have budget left (`throttle`); `docs/api.md` ("Token endpoint:
//! throttling") states the policy.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::Json;
use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::OwnedSemaphorePermit;
use utoipa::ToSchema;

use crate::body::{is_json, media_type, read_bytes};
use crate::error::{ApiError, ErrorBody};
use crate::guards::hash_pool::PoolError;
use crate::guards::throttle::{shown, shown_address, throttled};
use crate::guards::token_cache::sha256;
use crate::ids::{now_ms, random_token};
use crate::state::AppState;
use crate::store::{ClientRecord, TokenRecord};

pub use crate::guards::secrets::{HashError, hash_secret, verify_secret};

/// The authenticated caller of a `/v1` endpoint.
#[derive(Debug, Clone)]
pub struct Caller {
    /// Its organization: every record it reads or writes belongs to it.
    pub organization: String,
    /// Its client id, or a person's name: `user.getName()` in scripts, `editedBy` of what it
    /// writes.
    pub client_id: String,
    /// Its roles (`access.rs` checks them).
    pub subject: jobgraph_model::permissions::Subject,
    /// Whether it is a person logged in (else a client: a service account).
    pub person: bool,
    /// Its place among the requests its organization has being served (`fair`), held until
    /// the handler ends or [`Caller::leave_line`].
    turn: Arc<Mutex<Option<OwnedSemaphorePermit>>>,
}

impl Caller {
    /// Gives back the request's place in its organization's line early: a request that runs
    /// scripts, once it holds a script slot (scripts have their own share).
    pub(crate) fn leave_line(&self) {
        self.turn
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
    }
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let unauthorized = |message: &str, token_sent: bool| ApiError::Unauthorized {
            message: message.to_owned(),
            token_sent,
        };
        // Two credentials in one request: no guessing which one counts.
        if parts
            .headers
            .get_all(header::AUTHORIZATION)
            .iter()
            .nth(1)
            .is_some()
        {
            return Err(ApiError::BadRequest(
                "more than one Authorization header: send exactly one, `Authorization: Bearer <token>`"
                    .into(),
            ));
        }
        let Some(value) = parts.headers.get(header::AUTHORIZATION) else {
            return Err(unauthorized(
                "missing Authorization header: send `Authorization: Bearer <token>` (get one at POST /oauth/token)",
                false,
            ));
        };
        let token = value
            .to_str()
            .ok()
            .and_then(|v| {
                let (scheme, token) = v.trim().split_once(' ')?;
                scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
            })
            .filter(|t| !t.is_empty())
            .ok_or_else(|| {
                unauthorized(
                    "malformed Authorization header: expected `Bearer <token>`",
                    false,
                )
            })?;
        let hash = sha256(token);
        let record = match state.tokens.get(&hash) {
            Some(record) => record,
            None => {
                let record = state
                    .store
                    .token(hash)
                    .await?
                    .ok_or_else(|| unauthorized("unknown access token", true))?;
                state.tokens.put(record.clone());
                Arc::new(record)
            }
        };
        if record.expires_at_ms <= now_ms() {
            return Err(unauthorized(
                "the access token has expired: get a new one",
                true,
            ));
        }
        let Some(grants) = &record.grants else {
            return Err(unauthorized(
                "the person or client this access token was issued to no longer exists",
                true,
            ));
        };
        crate::layers::record_organization(&record.organization);
        // One organization's flood waits in its own line (bounded), not in everyone's.
        let turn = state.requests.enter(&record.organization).await?;
        Ok(Caller {
            organization: record.organization.clone(),
            client_id: record.client_id.clone(),
            subject: grants.subject(),
            person: record.family.is_some(),
            turn: Arc::new(Mutex::new(Some(turn))),
        })
    }
}

/// A token request (JSON or form-encoded; the client may instead authenticate with HTTP
/// Basic).
#[derive(Deserialize, ToSchema)]
pub struct TokenRequest {
    /// The client id (or HTTP Basic credentials instead); missing credentials are a 401
    /// `invalid_client`.
    pub client_id: Option<String>,
    /// The client secret (or HTTP Basic credentials instead).
    pub client_secret: Option<String>,
    /// `client_credentials` (a client), `authorization_code` or `refresh_token` (a person,
    /// through a public client: `docs/api.md`, "People, login and roles").
    #[schema(value_type = String, pattern = "^(client_credentials|authorization_code|refresh_token)$")]
    pub grant_type: Option<String>,
    /// `service` when given.
    #[schema(pattern = "^service$")]
    pub audience: Option<String>,
    /// `service` when given.
    #[schema(pattern = "^service$")]
    pub scope: Option<String>,
    /// `authorization_code`: the code the login form sent to the redirect URI.
    #[serde(default)]
    pub code: Option<String>,
    /// `authorization_code`: the redirect URI of the login, again.
    #[serde(default)]
    pub redirect_uri: Option<String>,
    /// `authorization_code`: the PKCE verifier (RFC 7636).
    #[serde(default)]
    pub code_verifier: Option<String>,
    /// `refresh_token`: the refresh token.
    #[serde(default)]
    pub refresh_token: Option<String>,
}

/// A token.
#[derive(Serialize, ToSchema)]
pub struct TokenResponse {
    /// The bearer token.
    pub access_token: String,
    /// `Bearer`.
    pub token_type: &'static str,
    /// Seconds until it expires.
    pub expires_in: u64,
    /// `service`.
    pub scope: &'static str,
    /// A person's token: the refresh token that gets the next one (used once).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refresh_token: Option<String>,
}

pub(crate) fn oauth(
    status: StatusCode,
    code: &'static str,
    description: impl Into<String>,
) -> ApiError {
    ApiError::OAuth {
        status,
        code,
        description: description.into(),
    }
}

fn text(value: &Value) -> Option<String> {
    value.as_str().map(str::to_owned)
}

/// The request's fields, from a JSON or a form body.
fn parse_request(headers: &HeaderMap, body: &[u8]) -> Result<TokenRequest, ApiError> {
    let bad = |d: String| oauth(StatusCode::BAD_REQUEST, "invalid_request", d);
    if is_json(headers) {
        let value = crate::body::parse_body(body)
            .map_err(|e| bad(format!("the body is not valid JSON: {e}")))?;
        let Value::Object(map) = value else {
            return Err(bad("the body must be a JSON object".into()));
        };
        let field = |name: &str| -> Result<Option<String>, ApiError> {
            match map.get(name) {
                None | Some(Value::Null) => Ok(None),
                Some(v) => text(v)
                    .map(Some)
                    .ok_or_else(|| bad(format!("`{name}` must be a string"))),
            }
        };
        Ok(TokenRequest {
            client_id: field("client_id")?,
            client_secret: field("client_secret")?,
            grant_type: field("grant_type")?,
            audience: field("audience")?,
            scope: field("scope")?,
            code: field("code")?,
            redirect_uri: field("redirect_uri")?,
            code_verifier: field("code_verifier")?,
            refresh_token: field("refresh_token")?,
        })
    } else if media_type(headers).as_deref() == Some("application/x-www-form-urlencoded") {
        serde_urlencoded::from_bytes(body)
            .map_err(|e| bad(format!("cannot read the form body: {e}")))
    } else {
        Err(ApiError::UnsupportedMediaType(
            "send the token request as application/json or application/x-www-form-urlencoded"
                .into(),
        ))
    }
}

/// `Authorization: Basic base64(urlencode(id):urlencode(secret))` (RFC 6749 §2.3.1).
pub(crate) fn basic_credentials(headers: &HeaderMap) -> Result<Option<(String, String)>, ApiError> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let invalid = || {
        oauth(
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            "malformed HTTP Basic credentials",
        )
    };
    let value = value.to_str().map_err(|_| invalid())?.trim();
    let Some((scheme, encoded)) = value.split_once(' ') else {
        return Err(invalid());
    };
    if !scheme.eq_ignore_ascii_case("basic") {
        return Ok(None);
    }
    let decoded = decode_base64(encoded.trim()).ok_or_else(invalid)?;
    let decoded = String::from_utf8(decoded).map_err(|_| invalid())?;
    let (id, secret) = decoded.split_once(':').ok_or_else(invalid)?;
    let unescape = |s: &str| form_decode(s).ok_or_else(invalid);
    Ok(Some((unescape(id)?, unescape(secret)?)))
}

/// Undoes `application/x-www-form-urlencoded` encoding (`+` is a space, `%XX` a byte), which
/// RFC 6749 §2.3.1 applies to the id and secret before HTTP Basic. A `%` not followed by two
/// hex digits stays as it is (clients such as `curl -u` send the text unencoded). `None` when
/// the bytes are not UTF-8.
fn form_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| char::from(b).to_digit(16);
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push(u8::try_from(h * 16 + l).ok()?);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            other => out.push(other),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

/// Standard base64 (padding optional).
fn decode_base64(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut buffer, mut bits) = (0u32, 0u32);
    for c in text.trim_end_matches('=').bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        };
        buffer = (buffer << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buffer >> bits) as u8);
            buffer &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// Issue an access token (OAuth 2.0 client credentials).
///
/// Accepts a JSON body (the interface document's form), a form-encoded body (what OAuth 2.0
/// libraries send), and client authentication by HTTP Basic instead of body fields.
#[utoipa::path(
    post, path = "/oauth/token", operation_id = "issueToken", tag = "auth",
    request_body(
        content(
            (TokenRequest = "application/json"),
            (jobgraph_sdk::api::request_docs::TokenForm = "application/x-www-form-urlencoded"),
        ),
        description = "client_id and client_secret may come as HTTP Basic credentials instead (RFC 6749 §2.3.1)."
    ),
    responses(
        (status = 200, description = "A token (`Cache-Control: no-store`)", body = TokenResponse),
        (status = 400, description = "`invalid_request` (malformed, `grant_type` missing, `audience` not `service`, a field of the grant missing), `unsupported_grant_type`, `invalid_scope`, `invalid_grant` (a code or refresh token unknown, expired, used already — which revokes its login's tokens — or not matching its client, redirect URI or PKCE verifier)", body = ErrorBody),
        (status = 401, description = "`invalid_client`: no client credentials, unknown client or wrong secret", body = ErrorBody),
        (status = 413, description = "Body over the limit", body = ErrorBody),
        (status = 415, description = "Neither JSON nor form-encoded", body = ErrorBody),
        (status = 429, description = "`slow_down`: the source address or the client id used its budget of secret verifications, or every verification thread is busy; retry after `Retry-After` seconds (docs/api.md, \"Token endpoint: throttling\")", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait before the next token request"))),
    )
)]
pub async fn issue_token(
    State(state): State<AppState>,
    request: Request,
) -> Result<impl IntoResponse, ApiError> {
    let headers = request.headers().clone();
    let address = state.throttle.request_address(&request);
    let body = read_bytes(request, &state).await?;
    let mut form = parse_request(&headers, &body)?;
    if let Some((id, secret)) = basic_credentials(&headers)? {
        form.client_id = Some(id);
        form.client_secret = Some(secret);
    }
    let bad = |d: &str| oauth(StatusCode::BAD_REQUEST, "invalid_request", d);
    let grant = form
        .grant_type
        .clone()
        .ok_or_else(|| bad("`grant_type` is required (client_credentials)"))?;
    if matches!(grant.as_str(), "authorization_code" | "refresh_token") {
        let fields = crate::login::grants::GrantFields {
            client_id: form.client_id,
            code: form.code,
            redirect_uri: form.redirect_uri,
            code_verifier: form.code_verifier,
            refresh_token: form.refresh_token,
        };
        let granted = if grant == "authorization_code" {
            crate::login::grants::authorization_code(&state, &fields).await?
        } else {
            crate::login::grants::refresh(&state, &fields).await?
        };
        return Ok((
            [
                (header::CACHE_CONTROL, "no-store"),
                (header::PRAGMA, "no-cache"),
            ],
            Json(TokenResponse {
                access_token: granted.access_token,
                token_type: "Bearer",
                expires_in: granted.expires_in,
                scope: "service",
                refresh_token: Some(granted.refresh_token),
            }),
        ));
    }
    if grant != "client_credentials" {
        return Err(oauth(
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            format!(
                "grant type {grant:?} is not supported: use client_credentials, authorization_code or refresh_token"
            ),
        ));
    }
    for (name, value) in [("audience", &form.audience), ("scope", &form.scope)] {
        if value.as_deref().is_some_and(|v| v != "service") {
            return Err(oauth(
                StatusCode::BAD_REQUEST,
                if name == "scope" {
                    "invalid_scope"
                } else {
                    "invalid_request"
                },
                format!("`{name}` must be \"service\""),
            ));
        }
    }
    // RFC 6749 §5.2: a request without client authentication is `invalid_client`.
    let no_client = || {
        oauth(
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            "client authentication is required: `client_id` and `client_secret` in the body, or HTTP Basic",
        )
    };
    let client_id = form
        .client_id
        .filter(|s| !s.is_empty())
        .ok_or_else(no_client)?;
    let secret = form.client_secret.ok_or_else(no_client)?;
    let ClientRecord { organization, .. } =
        authenticate_client(&state, &client_id, secret, address, "token").await?;
    let token = random_token(32).map_err(|e| ApiError::Internal(e.to_string()))?;
    let ttl = state.config.token_ttl_seconds;
    let ttl_ms = i64::try_from(ttl.saturating_mul(1000)).unwrap_or(i64::MAX);
    let record = TokenRecord {
        token_hash: sha256(&token),
        client_id,
        organization: organization.clone(),
        expires_at_ms: now_ms().saturating_add(ttl_ms),
        family: None,
        grants: None,
    };
    // Not cached here: the first request reads the token with its client's roles.
    state.store.put_token(record).await?;
    crate::layers::record_organization(&organization);
    // RFC 6749 §5.1: the answer carries a credential, so no cache may keep it.
    Ok((
        [
            (header::CACHE_CONTROL, "no-store"),
            (header::PRAGMA, "no-cache"),
        ],
        Json(TokenResponse {
            access_token: token,
            token_type: "Bearer",
            expires_in: ttl,
            scope: "service",
            refresh_token: None,
        }),
    ))
}

/// Checks a client's credentials as the token endpoint does (also `POST /oauth/revoke`): the
/// source address's and the client id's budgets first (429 `slow_down`), then the secret on
/// the verification threads; `purpose` (`token`, `revocation`) names the refusal in the log;
/// 401 `invalid_client` for an unknown client or a wrong secret.
pub(crate) async fn authenticate_client(
    state: &AppState,
    client_id: &str,
    secret: String,
    address: Option<std::net::IpAddr>,
    purpose: &str,
) -> Result<ClientRecord, ApiError> {
    // Budgets first: a refused request costs no database read and no hash; its answer waits
    // `refusalDelayMs` (a timer), which keeps a flood of refused requests to a trickle.
    let delay = Duration::from_millis(state.config.token_throttle.refusal_delay_ms);
    let lane = match state.throttle.admit(client_id, address) {
        Ok(lane) => lane,
        Err(refusal) => {
            tokio::time::sleep(delay).await;
            return Err(throttled(refusal, client_id, address));
        }
    };
    let client = state.store.client(client_id.to_owned()).await?;
    let hash = client.as_ref().map(|c| c.secret_hash.clone());
    let matches = match state.secrets.verify(lane, secret, hash).await {
        Ok(matches) => matches,
        Err(PoolError::Busy) => {
            tokio::time::sleep(delay).await;
            return Err(ApiError::SlowDown {
                description:
                    "the service is verifying too many client secrets right now: retry after 1 s"
                        .into(),
                retry_after: 1,
            });
        }
        Err(e @ PoolError::Gone) => return Err(ApiError::Internal(e.to_string())),
    };
    let Some(client) = client.filter(|_| matches) else {
        tracing::warn!(
            target: "jobgraph::auth",
            client_id = ?shown(client_id),
            address = %shown_address(address),
            "{purpose} refused: unknown client or wrong secret"
        );
        return Err(oauth(
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            "unknown client or wrong secret",
        ));
    };
    state.throttle.succeeded(client_id, address);
    Ok(client)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic_credentials_are_form_decoded() {
        assert_eq!(form_decode("a+b%26c%3Ad").as_deref(), Some("a b&c:d"));
        assert_eq!(form_decode("100%").as_deref(), Some("100%"));
        assert_eq!(form_decode("%zz%4").as_deref(), Some("%zz%4"));
        assert_eq!(form_decode("x&y=z").as_deref(), Some("x&y=z"));
        assert_eq!(form_decode("%ff"), None);
    }

    #[test]
    fn base64_decodes() {
        assert_eq!(decode_base64("Zm9vOmJhcg==").unwrap(), b"foo:bar");
        assert_eq!(decode_base64("Zm9vOmJhcg").unwrap(), b"foo:bar");
        assert!(decode_base64("Zm9v!").is_none());
    }
}
