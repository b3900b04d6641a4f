//! Access tokens: OAuth 2.0 client credentials (`POST {authBaseUrl}/oauth/token`), kept in
//! memory and optionally in a [`TokenStore`], refreshed shortly before they expire, one
//! refresh at a time. A person's token (from a login: the CLI's `jobgraph login`) carries a
//! refresh token instead of a client secret: it is refreshed with the `refresh_token` grant,
//! and the new refresh token replaces the spent one in the store.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::Deserialize;
use serde_json::json;

use super::credentials::{Credentials, Secret};
use super::error::ClientError;
use super::http::{Http, Outgoing};

/// The most a token is treated as expired early (the public client's 5 minutes).
pub const MAX_REFRESH_MARGIN: Duration = Duration::from_secs(300);

/// The lifetime assumed when the token endpoint does not say (`expires_in` missing).
pub const DEFAULT_LIFETIME: Duration = Duration::from_secs(3600);

/// A bearer token and when it expires.
#[derive(Clone, PartialEq, Eq)]
pub struct AccessToken {
    value: Secret,
    issued_at: SystemTime,
    expires_at: SystemTime,
    refresh: Option<Secret>,
}

impl AccessToken {
    /// A token issued at `issued_at` that expires at `expires_at`.
    pub fn new(value: impl Into<Secret>, issued_at: SystemTime, expires_at: SystemTime) -> Self {
        AccessToken {
            value: value.into(),
            issued_at,
            expires_at,
            refresh: None,
        }
    }

    /// The same token with the refresh token that gets the next one (a person's login).
    pub fn with_refresh_token(mut self, refresh: impl Into<Secret>) -> Self {
        self.refresh = Some(refresh.into());
        self
    }

    /// The refresh token, for a person's token.
    pub fn refresh_token(&self) -> Option<&Secret> {
        self.refresh.as_ref()
    }

    /// The token itself (for the `Authorization` header).
    pub fn secret(&self) -> &Secret {
        &self.value
    }

    /// When it was issued.
    pub fn issued_at(&self) -> SystemTime {
        self.issued_at
    }

    /// When the token endpoint said it expires.
    pub fn expires_at(&self) -> SystemTime {
        self.expires_at
    }

    /// How long before `expires_at` it is replaced: a quarter of its lifetime, at most
    /// [`MAX_REFRESH_MARGIN`] (so a token of 24 h is replaced 5 minutes early, one of 60 s
    /// after 45 s).
    pub fn refresh_margin(&self) -> Duration {
        let lifetime = self
            .expires_at
            .duration_since(self.issued_at)
            .unwrap_or_default();
        (lifetime / 4).min(MAX_REFRESH_MARGIN)
    }

    /// Whether it can still be sent at `now` (not within its refresh margin of expiry).
    pub fn is_fresh_at(&self, now: SystemTime) -> bool {
        now.checked_add(self.refresh_margin())
            .is_some_and(|limit| limit < self.expires_at)
            && now
                >= self
                    .issued_at
                    .checked_sub(MAX_REFRESH_MARGIN)
                    .unwrap_or(UNIX_EPOCH)
    }

    /// Whether it can still be sent now.
    pub fn is_fresh(&self) -> bool {
        self.is_fresh_at(SystemTime::now())
    }
}

impl fmt::Debug for AccessToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AccessToken")
            .field("value", &self.value)
            .field("issued_at", &self.issued_at)
            .field("expires_at", &self.expires_at)
            .field("refresh", &self.refresh.as_ref().map(|_| "<redacted>"))
            .finish()
    }
}

/// Which token a [`TokenStore`] entry is: one per client id and token endpoint.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TokenKey {
    /// The client id.
    pub client_id: String,
    /// The auth base URL (the token endpoint is `{auth_base_url}/oauth/token`).
    pub auth_base_url: String,
}

/// Somewhere tokens outlive the client, such as the CLI's `~/.jobgraph/auth/`
/// ([`DiskTokenStore`](super::DiskTokenStore)). The client reads it when it has no fresh token
/// in memory and writes every new token to it.
pub trait TokenStore: Send + Sync {
    /// The stored token for `key`, if any (fresh or not: the client checks).
    fn load(&self, key: &TokenKey) -> Option<AccessToken>;
    /// Keeps `token` for `key`, replacing what was there.
    fn save(&self, key: &TokenKey, token: &AccessToken) -> std::io::Result<()>;
}

/// The token endpoint's answer: `expires_in` is a number or a numeric string.
#[derive(Deserialize)]
struct TokenReply {
    access_token: String,
    #[serde(default)]
    expires_in: Option<serde_json::Value>,
    #[serde(default)]
    refresh_token: Option<String>,
}

/// `expires_in` as seconds: a number or a string of digits; anything else is `None`.
pub(crate) fn expires_in_seconds(value: Option<&serde_json::Value>) -> Option<u64> {
    match value? {
        serde_json::Value::Number(n) => n
            .as_u64()
            .or_else(|| n.as_f64().filter(|f| *f >= 0.0).map(|f| f as u64)),
        serde_json::Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// The client's tokens: the current one in memory (behind an async mutex, which makes every
/// refresh single-flight: callers that find no fresh token wait for the one refresh under
/// way), the optional store, and a count of the tokens fetched.
pub(crate) struct Tokens {
    pub credentials: Credentials,
    pub token_url: reqwest::Url,
    pub key: TokenKey,
    pub store: Option<Arc<dyn TokenStore>>,
    current: tokio::sync::Mutex<Option<AccessToken>>,
    fetched: AtomicU64,
}

/// A token and whether it was already known (from memory or the store) rather than fetched
/// for this call: a known token earns a retry after a 401, and so does a fetched one that
/// expired while the call waited (retries after 429s).
pub(crate) struct Lease {
    pub token: AccessToken,
    pub reused: bool,
}

impl Tokens {
    pub fn new(
        credentials: Credentials,
        token_url: reqwest::Url,
        key: TokenKey,
        store: Option<Arc<dyn TokenStore>>,
    ) -> Self {
        Tokens {
            credentials,
            token_url,
            key,
            store,
            current: tokio::sync::Mutex::new(None),
            fetched: AtomicU64::new(0),
        }
    }

    /// Tokens fetched from the token endpoint so far.
    pub fn fetched(&self) -> u64 {
        self.fetched.load(Ordering::Relaxed)
    }

    /// Puts a token in memory (as if it had been fetched earlier).
    pub async fn seed(&self, token: AccessToken) {
        *self.current.lock().await = Some(token);
    }

    /// A fresh token: the one in memory, else the store's, else a new one.
    pub async fn get(&self, http: &Http) -> Result<Lease, ClientError> {
        let mut current = self.current.lock().await;
        if let Some(token) = current.as_ref().filter(|t| t.is_fresh()) {
            return Ok(Lease {
                token: token.clone(),
                reused: true,
            });
        }
        if let Some(token) = self
            .store
            .as_ref()
            .and_then(|s| s.load(&self.key))
            .filter(AccessToken::is_fresh)
        {
            http.trace(&format!(
                "token: using the cached token of client {} (expires in {} s)",
                self.key.client_id,
                remaining(&token)
            ));
            *current = Some(token.clone());
            return Ok(Lease {
                token,
                reused: true,
            });
        }
        let stale = current
            .take()
            .or_else(|| self.store.as_ref().and_then(|s| s.load(&self.key)));
        let token = self.fetch(http, stale.as_ref()).await?;
        *current = Some(token.clone());
        Ok(Lease {
            token,
            reused: false,
        })
    }

    /// After `rejected` got a 401: a new token, unless another caller already replaced it
    /// (then that one). Never the store's copy, which may be `rejected` itself.
    pub async fn replace(
        &self,
        http: &Http,
        rejected: &AccessToken,
    ) -> Result<AccessToken, ClientError> {
        let mut current = self.current.lock().await;
        if let Some(token) = current
            .as_ref()
            .filter(|t| t.secret() != rejected.secret() && t.is_fresh())
        {
            return Ok(token.clone());
        }
        let stale = current.take().unwrap_or_else(|| rejected.clone());
        let token = self.fetch(http, Some(&stale)).await?;
        *current = Some(token.clone());
        Ok(token)
    }

    /// A person's login finished: the authorization code (with its PKCE verifier) exchanged
    /// for a token and its refresh token, kept in memory and saved to the store.
    pub async fn exchange_code(
        &self,
        http: &Http,
        code: &str,
        redirect_uri: &str,
        verifier: &Secret,
    ) -> Result<AccessToken, ClientError> {
        let body = json!({
            "client_id": self.credentials.client_id,
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": redirect_uri,
            "code_verifier": verifier.expose(),
        });
        let token = self.request(http, body, false).await?;
        *self.current.lock().await = Some(token.clone());
        Ok(token)
    }

    /// Ends a person's login at the service (`POST …/oauth/revoke`, RFC 7009, as a public
    /// client: no secret): `token`'s refresh token, else the token itself. The service answers
    /// 200 whether or not it knew the token.
    pub async fn revoke_login(&self, http: &Http, token: &AccessToken) -> Result<(), ClientError> {
        let text = token
            .refresh_token()
            .unwrap_or_else(|| token.secret())
            .expose()
            .to_owned();
        let mut url = self.token_url.clone();
        let path = url.path().trim_end_matches("/token").to_owned() + "/revoke";
        url.set_path(&path);
        let body = json!({"client_id": self.credentials.client_id, "token": text});
        let answer = http
            .send(&Outgoing {
                method: reqwest::Method::POST,
                url: url.clone(),
                body: Some((body.to_string().into_bytes(), "application/json")),
                bearer: None,
                idempotent: true,
            })
            .await?;
        if (200..300).contains(&answer.status) {
            Ok(())
        } else {
            Err(ClientError::TokenRejected {
                url: url.to_string(),
                status: answer.status,
                message: answer.error_text(&["error_description", "message", "error"]),
            })
        }
    }

    /// One token from the token endpoint, saved to the store: with the client secret (client
    /// credentials, retried like an idempotent request: asking again is harmless), else with
    /// the refresh token of `stale` (a person's; sent once: a refresh token is spent by its
    /// use, and a second use would revoke the login).
    async fn fetch(
        &self,
        http: &Http,
        stale: Option<&AccessToken>,
    ) -> Result<AccessToken, ClientError> {
        let (body, idempotent) = match (
            &self.credentials.secret,
            stale.and_then(AccessToken::refresh_token),
        ) {
            (Some(secret), _) => (
                json!({
                    "client_id": self.credentials.client_id,
                    "client_secret": secret.expose(),
                    "audience": "service",
                    "grant_type": "client_credentials",
                }),
                true,
            ),
            (None, Some(refresh)) => (
                json!({
                    "client_id": self.credentials.client_id,
                    "grant_type": "refresh_token",
                    "refresh_token": refresh.expose(),
                }),
                false,
            ),
            (None, None) => {
                return Err(ClientError::MissingSecret {
                    client_id: self.credentials.client_id.clone(),
                });
            }
        };
        self.request(http, body, idempotent).await
    }

    /// `body` posted to the token endpoint; its token, saved to the store.
    async fn request(
        &self,
        http: &Http,
        body: serde_json::Value,
        idempotent: bool,
    ) -> Result<AccessToken, ClientError> {
        let issued_at = SystemTime::now();
        http.trace(&format!(
            "token: requesting a new token for client {} from {}",
            self.key.client_id, self.token_url
        ));
        let answer = http
            .send(&Outgoing {
                method: reqwest::Method::POST,
                url: self.token_url.clone(),
                body: Some((body.to_string().into_bytes(), "application/json")),
                bearer: None,
                idempotent,
            })
            .await?;
        let url = self.token_url.to_string();
        if !(200..300).contains(&answer.status) {
            return Err(ClientError::TokenRejected {
                url,
                status: answer.status,
                message: answer.error_text(&["error_description", "message", "error"]),
            });
        }
        let reply: TokenReply =
            serde_json::from_slice(&answer.body).map_err(|e| ClientError::InvalidResponse {
                method: "POST".into(),
                path: self.token_url.path().to_owned(),
                status: answer.status,
                reason: format!("not a token answer: {e}"),
            })?;
        let lifetime = expires_in_seconds(reply.expires_in.as_ref())
            .map_or(DEFAULT_LIFETIME, Duration::from_secs);
        let mut token = AccessToken::new(reply.access_token, issued_at, issued_at + lifetime);
        if let Some(refresh) = reply.refresh_token {
            token = token.with_refresh_token(refresh);
        }
        self.fetched.fetch_add(1, Ordering::Relaxed);
        http.trace(&format!(
            "token: got a token valid for {} s",
            lifetime.as_secs()
        ));
        if let Some(store) = &self.store
            && let Err(e) = store.save(&self.key, &token)
        {
            http.trace(&format!("token: could not cache the token: {e}"));
        }
        Ok(token)
    }
}

fn remaining(token: &AccessToken) -> u64 {
    token
        .expires_at()
        .duration_since(SystemTime::now())
        .unwrap_or_default()
        .as_secs()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn expires_in_as_number_or_string() {
        assert_eq!(expires_in_seconds(Some(&json!(86400))), Some(86400));
        assert_eq!(expires_in_seconds(Some(&json!("86400"))), Some(86400));
        assert_eq!(expires_in_seconds(Some(&json!(" 60 "))), Some(60));
        assert_eq!(expires_in_seconds(Some(&json!(1.5))), Some(1));
        assert_eq!(expires_in_seconds(Some(&json!("soon"))), None);
        assert_eq!(expires_in_seconds(Some(&json!(-3))), None);
        assert_eq!(expires_in_seconds(None), None);
    }

    #[test]
    fn refreshed_a_quarter_of_its_lifetime_early_at_most_five_minutes() {
        let t0 = UNIX_EPOCH + Duration::from_secs(1_000_000);
        let day = AccessToken::new("a", t0, t0 + Duration::from_secs(86400));
        assert_eq!(day.refresh_margin(), MAX_REFRESH_MARGIN);
        assert!(day.is_fresh_at(t0 + Duration::from_secs(86400 - 301)));
        assert!(!day.is_fresh_at(t0 + Duration::from_secs(86400 - 299)));
        let minute = AccessToken::new("a", t0, t0 + Duration::from_secs(60));
        assert_eq!(minute.refresh_margin(), Duration::from_secs(15));
        assert!(minute.is_fresh_at(t0 + Duration::from_secs(44)));
        assert!(!minute.is_fresh_at(t0 + Duration::from_secs(46)));
        // A token "issued" far in the future (a clock moved back) is not trusted.
        assert!(!minute.is_fresh_at(t0 - Duration::from_secs(3600)));
    }

    #[test]
    fn debug_never_shows_the_token() {
        let t = AccessToken::new("tok-123-secret", UNIX_EPOCH, UNIX_EPOCH);
        assert!(!format!("{t:?}").contains("tok-123"));
    }
}
