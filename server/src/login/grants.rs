//! The token endpoint's grants for people (`POST /oauth/token`):
//!
//! - `authorization_code`: `code`, `redirect_uri`, `code_verifier`, `client_id` (a public
//!   client: no secret, PKCE instead). The code is taken once: a second use is `invalid_grant`
//!   and revokes every token the first gave (RFC 6749 §4.1.2).
//! - `refresh_token`: `refresh_token`, `client_id`. Each refresh gives a new refresh token
//!   and the old one is spent; a spent one used again revokes its whole family — the tokens
//!   of that login — since either its holder or a thief is replaying it (RFC 9700 §4.14.2).
//!
//! Both answer an access token (`tokenTtlSeconds`, 86 400 s) that acts as the person (their
//! name is `editedBy` and `user.getName()`) and a refresh token (`login.refreshTtlSeconds`).

use std::net::IpAddr;
use std::time::Duration;

use axum::http::StatusCode;
use base64::Engine;
use sha2::Digest;

use crate::error::ApiError;
use crate::guards::hash_pool::PoolError;
use crate::guards::throttle::Refusal;
use crate::guards::token_cache::sha256;
use crate::ids::{now_ms, random_token};
use crate::state::AppState;
use crate::store::{RefreshRecord, Taken, TokenRecord, UserRecord};

/// Why a password could not be checked.
pub(crate) enum Refused {
    /// Too many attempts: retry after this many seconds.
    Throttled(u64),
    /// The service failed.
    Failed(String),
}

/// The user when `password` is theirs; `None` for a wrong organization, name or password
/// (indistinguishable, in answer and time: an unknown user is checked against a decoy hash).
/// Counted against the token endpoint's budgets, keyed by organization and name.
pub(crate) async fn check_password(
    state: &AppState,
    organization: &str,
    name: &str,
    password: String,
    address: Option<IpAddr>,
) -> Result<Option<UserRecord>, Refused> {
    let key = format!("user:{organization}/{name}");
    let delay = Duration::from_millis(state.config.token_throttle.refusal_delay_ms);
    let lane = match state.throttle.admit(&key, address) {
        Ok(lane) => lane,
        Err(refusal) => {
            tokio::time::sleep(delay).await;
            let wait = match refusal {
                Refusal::Address(w) | Refusal::Client(w) => w,
            };
            return Err(Refused::Throttled(wait.as_secs().max(1)));
        }
    };
    let user = state
        .store
        .user(organization.to_owned(), name.to_owned())
        .await
        .map_err(|e| Refused::Failed(e.to_string()))?;
    let hash = user.as_ref().map(|u| u.secret_hash.clone());
    let matches = match state.secrets.verify(lane, password, hash).await {
        Ok(m) => m,
        Err(PoolError::Busy) => return Err(Refused::Throttled(1)),
        Err(e) => return Err(Refused::Failed(e.to_string())),
    };
    match user.filter(|_| matches) {
        Some(user) => {
            state.throttle.succeeded(&key, address);
            Ok(Some(user))
        }
        None => {
            tracing::warn!(target: "jobgraph::auth", "login refused: wrong organization, user name or password");
            Ok(None)
        }
    }
}

/// The fields of a person's token request.
#[derive(Debug, Default, serde::Deserialize)]
pub(crate) struct GrantFields {
    pub client_id: Option<String>,
    pub code: Option<String>,
    pub redirect_uri: Option<String>,
    pub code_verifier: Option<String>,
    pub refresh_token: Option<String>,
}

/// What a person's grant answers: the access token, its lifetime and the refresh token.
pub(crate) struct Granted {
    pub access_token: String,
    pub expires_in: u64,
    pub refresh_token: String,
}

/// An RFC 6749 §5.2 error answer.
fn oauth(status: StatusCode, code: &'static str, description: impl Into<String>) -> ApiError {
    ApiError::OAuth {
        status,
        code,
        description: description.into(),
    }
}

fn invalid_grant(description: impl Into<String>) -> ApiError {
    oauth(StatusCode::BAD_REQUEST, "invalid_grant", description)
}

fn required<'a>(value: &'a Option<String>, name: &str) -> Result<&'a str, ApiError> {
    value.as_deref().filter(|v| !v.is_empty()).ok_or_else(|| {
        oauth(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            format!("`{name}` is required"),
        )
    })
}

/// The public client a request names (401 `invalid_client` when it is not one).
fn public_client<'a>(state: &AppState, fields: &'a GrantFields) -> Result<&'a str, ApiError> {
    let id = fields.client_id.as_deref().unwrap_or_default();
    if state.config.login.public_clients.iter().any(|c| c == id) {
        Ok(id)
    } else {
        Err(oauth(
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            format!(
                "client_id {id:?} is not a public client of this service (login.publicClients)"
            ),
        ))
    }
}

/// Revokes a family (its tokens leave this replica's cache too).
async fn revoke(state: &AppState, family: String) -> Result<(), ApiError> {
    let hashes = state.store.revoke_family(family).await?;
    for hash in &hashes {
        state.tokens.remove(hash);
    }
    tracing::warn!(target: "jobgraph::auth", revoked = hashes.len(), "a used code or refresh token came again: its login's tokens are revoked");
    Ok(())
}

/// A person's logout (`POST /oauth/revoke` by a public client, RFC 7009): `token` — one of
/// the login's refresh tokens, or an access token given to a person — ends its whole login
/// (its family). A refresh token of another client, a client's token, or an unknown one is
/// left alone; the answer says nothing either way.
pub(crate) async fn revoke_login(
    state: &AppState,
    client_id: &str,
    token: &str,
) -> Result<(), ApiError> {
    let hash = sha256(token);
    let family = match state.store.take_refresh(hash).await? {
        Taken::Fresh(record) => (record.client_id == client_id).then_some(record.family),
        Taken::Reused(family) => Some(family),
        Taken::Unknown => state.store.token(hash).await?.and_then(|t| t.family),
    };
    if let Some(family) = family {
        let hashes = state.store.revoke_family(family).await?;
        for hash in &hashes {
            state.tokens.remove(hash);
        }
        tracing::info!(target: "jobgraph::auth", client_id = %client_id, revoked = hashes.len(), "a person logged out: their login's tokens are revoked");
    }
    Ok(())
}

/// The `authorization_code` grant.
pub(crate) async fn authorization_code(
    state: &AppState,
    fields: &GrantFields,
) -> Result<Granted, ApiError> {
    let client_id = public_client(state, fields)?;
    let code = required(&fields.code, "code")?;
    let redirect_uri = required(&fields.redirect_uri, "redirect_uri")?;
    let verifier = required(&fields.code_verifier, "code_verifier")?;
    let code = match state.store.take_code(sha256(code)).await? {
        Taken::Fresh(code) => code,
        Taken::Reused(family) => {
            revoke(state, family).await?;
            return Err(invalid_grant(
                "the code was used already: a code is good once, and the tokens it gave are now revoked",
            ));
        }
        Taken::Unknown => {
            return Err(invalid_grant(
                "unknown or expired code: log in again (a code is good for login.codeTtlSeconds)",
            ));
        }
    };
    if code.client_id != client_id || code.redirect_uri != redirect_uri {
        return Err(invalid_grant(
            "the code was given to another client_id or redirect_uri",
        ));
    }
    if !(43..=128).contains(&verifier.len())
        || !verifier
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~".contains(&b))
    {
        return Err(invalid_grant(
            "code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636 §4.1)",
        ));
    }
    let challenge = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(sha2::Sha256::digest(verifier.as_bytes()));
    if challenge != code.challenge {
        return Err(invalid_grant(
            "code_verifier does not match the code_challenge of the login (S256)",
        ));
    }
    issue(
        state,
        client_id,
        &code.organization,
        &code.user,
        &code.family,
    )
    .await
}

/// The `refresh_token` grant.
pub(crate) async fn refresh(state: &AppState, fields: &GrantFields) -> Result<Granted, ApiError> {
    let client_id = public_client(state, fields)?;
    let token = required(&fields.refresh_token, "refresh_token")?;
    let old = match state.store.take_refresh(sha256(token)).await? {
        Taken::Fresh(old) => old,
        Taken::Reused(family) => {
            revoke(state, family).await?;
            return Err(invalid_grant(
                "the refresh token was used already: every token of its login is now revoked; log in again",
            ));
        }
        Taken::Unknown => {
            return Err(invalid_grant(
                "unknown, revoked or expired refresh token: log in again",
            ));
        }
    };
    if old.client_id != client_id {
        return Err(invalid_grant(
            "the refresh token was given to another client_id",
        ));
    }
    issue(state, client_id, &old.organization, &old.user, &old.family).await
}

/// A new access token and refresh token of `family` for `user`.
async fn issue(
    state: &AppState,
    client_id: &str,
    organization: &str,
    user: &str,
    family: &str,
) -> Result<Granted, ApiError> {
    let random = || random_token(32).map_err(|e| ApiError::Internal(e.to_string()));
    let (access, refresh) = (random()?, random()?);
    let ttl = state.config.token_ttl_seconds;
    let ms = |s: u64| i64::try_from(s.saturating_mul(1000)).unwrap_or(i64::MAX);
    let token = TokenRecord {
        token_hash: sha256(&access),
        client_id: user.to_owned(),
        organization: organization.to_owned(),
        expires_at_ms: now_ms().saturating_add(ms(ttl)),
        family: Some(family.to_owned()),
        grants: None,
    };
    // Not cached here: the first request reads the token with its person's roles.
    state.store.put_token(token).await?;
    state
        .store
        .put_refresh(RefreshRecord {
            token_hash: sha256(&refresh),
            family: family.to_owned(),
            client_id: client_id.to_owned(),
            organization: organization.to_owned(),
            user: user.to_owned(),
            expires_at_ms: now_ms().saturating_add(ms(state.config.login.refresh_ttl_seconds)),
        })
        .await?;
    crate::layers::record_organization(organization);
    Ok(Granted {
        access_token: access,
        expires_in: ttl,
        refresh_token: refresh,
    })
}
