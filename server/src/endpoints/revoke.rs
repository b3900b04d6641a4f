//! Token revocation, `POST /oauth/revoke` (RFC 7009): a client ends one of its own access
//! tokens; a public client (`login.publicClients`, no secret) ends a person's login with one
//! of its refresh or access tokens (`jobgraph logout`). The client authenticates as at the token endpoint (body fields or HTTP Basic) and
//! is throttled the same way; the answer is 200 whether or not the token existed, so that the
//! endpoint tells nothing about tokens to anyone. A token issued to another client is left
//! alone (answered like an unknown one). `docs/api.md`, "Credential lifecycle and
//! revocation", states the policy.

use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::IntoResponse;
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::auth::{authenticate_client, basic_credentials, oauth};
use crate::body::{is_json, media_type, read_bytes};
use crate::error::{ApiError, ErrorBody};
use crate::guards::token_cache::sha256;
use crate::state::AppState;

/// A revocation request (JSON or form-encoded; the client may instead authenticate with HTTP
/// Basic).
#[derive(Deserialize, ToSchema, Default)]
pub struct RevokeRequest {
    /// The access token to revoke (required: its absence is a 400 `invalid_request`).
    #[schema(required = true, nullable = false, min_length = 1)]
    pub token: Option<String>,
    /// `access_token` or `refresh_token` (RFC 7009 §2.1); only a hint: ignored. A client's
    /// token is looked up as an access token; a public client's as a refresh token, then as
    /// an access token.
    pub token_type_hint: Option<String>,
    /// The client id (or HTTP Basic credentials instead).
    pub client_id: Option<String>,
    /// The client secret (or HTTP Basic credentials instead); none for a public client.
    pub client_secret: Option<String>,
}

/// The request's fields, from a JSON or a form body.
fn parse(headers: &HeaderMap, body: &[u8]) -> Result<RevokeRequest, ApiError> {
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
                Some(Value::String(text)) => Ok(Some(text.clone())),
                Some(_) => Err(bad(format!("`{name}` must be a string"))),
            }
        };
        Ok(RevokeRequest {
            token: field("token")?,
            token_type_hint: field("token_type_hint")?,
            client_id: field("client_id")?,
            client_secret: field("client_secret")?,
        })
    } else if media_type(headers).as_deref() == Some("application/x-www-form-urlencoded") {
        serde_urlencoded::from_bytes(body)
            .map_err(|e| bad(format!("cannot read the form body: {e}")))
    } else {
        Err(ApiError::UnsupportedMediaType(
            "send the revocation request as application/x-www-form-urlencoded or application/json"
                .into(),
        ))
    }
}

/// Revoke an access token (RFC 7009).
///
/// The client authenticates as at `POST /oauth/token` and may revoke only tokens issued to
/// it. The answer is 200 for an unknown, expired or already revoked token too.
#[utoipa::path(
    post, path = "/oauth/revoke", operation_id = "revokeToken", tag = "auth",
    request_body(
        content(
            (RevokeRequest = "application/x-www-form-urlencoded"),
            (RevokeRequest = "application/json"),
        ),
        description = "client_id and client_secret may come as HTTP Basic credentials instead (RFC 6749 §2.3.1)."
    ),
    responses(
        (status = 200, description = "Revoked, or not a token of this client (unknown, expired, already revoked, another client's): nothing to say either way (RFC 7009 §2.2)"),
        (status = 400, description = "`invalid_request`: malformed, or `token` missing", body = ErrorBody),
        (status = 401, description = "`invalid_client`: no client credentials, unknown client or wrong secret", body = ErrorBody),
        (status = 413, description = "Body over the limit", body = ErrorBody),
        (status = 415, description = "Neither form-encoded nor JSON", body = ErrorBody),
        (status = 429, description = "`slow_down`: the token endpoint's budgets of secret verifications, shared with it (docs/api.md, \"Token endpoint: throttling\"); retry after `Retry-After` seconds", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait before the next request"))),
    )
)]
pub async fn revoke_token(
    State(state): State<AppState>,
    request: Request,
) -> Result<impl IntoResponse, ApiError> {
    let headers = request.headers().clone();
    let address = state.throttle.request_address(&request);
    let body = read_bytes(request, &state).await?;
    let mut form = parse(&headers, &body)?;
    if let Some((id, secret)) = basic_credentials(&headers)? {
        form.client_id = Some(id);
        form.client_secret = Some(secret);
    }
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
    let public =
        form.client_secret.is_none() && state.config.login.public_clients.contains(&client_id);
    let secret = if public {
        String::new()
    } else {
        form.client_secret.ok_or_else(no_client)?
    };
    let token = form.token.ok_or_else(|| {
        oauth(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "`token` is required: the access token to revoke",
        )
    })?;
    if public {
        // A public client has no secret (RFC 7009 §5): holding the token is the proof, and
        // revoking only takes access away.
        crate::login::grants::revoke_login(&state, &client_id, &token).await?;
        return Ok((
            StatusCode::OK,
            [
                (header::CACHE_CONTROL, "no-store"),
                (header::PRAGMA, "no-cache"),
            ],
        ));
    }
    authenticate_client(&state, &client_id, secret, address, "revocation").await?;
    // Only a hint (RFC 7009 §2.1): every token here is an access token.
    tracing::debug!(target: "jobgraph::auth", hint = ?form.token_type_hint, "revocation");
    let hash = sha256(&token);
    let own = state
        .store
        .token(hash)
        .await?
        .is_some_and(|record| record.client_id == client_id);
    if own {
        state.store.delete_token(hash).await?;
        state.tokens.remove(&hash);
        tracing::info!(target: "jobgraph::auth", client_id = %client_id, "access token revoked");
    }
    Ok((
        StatusCode::OK,
        [
            (header::CACHE_CONTROL, "no-store"),
            (header::PRAGMA, "no-cache"),
        ],
    ))
}
