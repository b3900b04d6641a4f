//! The API client of `jobgraph serve` (and of any service with the same API): one typed
//! method per endpoint, OAuth 2.0 client-credentials tokens, retries, and a
//! [`TemplateSource`](jobgraph_model::TemplateSource) over the service ([`RemoteSource`]).
//! Behind the `client` feature (on by default).
//!
//! - [`Client`] — built with [`Client::builder`]; cheap to clone (one connection pool and one
//!   token shared by the clones). Methods: [`templates`](Client::create_template) and
//!   [`jobs`](Client::create_job) endpoints, [`create_trigger`](Client::create_trigger),
//!   [`token`](Client::token).
//! - Tokens: fetched from `{auth_base_url}/oauth/token` on first use, kept in memory and in an
//!   optional [`TokenStore`] ([`DiskTokenStore`] is the CLI's `~/.jobgraph/auth/`), replaced
//!   shortly before they expire; concurrent calls share one refresh; a 401 on a request made
//!   with a token from memory or the store is followed by exactly one new token and one retry.
//! - [`ClientError`] keeps the status, the service's `error` text and the request; secrets
//!   and tokens are in none of the errors, `Debug` outputs or trace lines.
//!
//! ```no_run
//! use jobgraph_sdk::client::{Client, Credentials};
//! # async fn run() -> Result<(), jobgraph_sdk::client::ClientError> {
//! let client = Client::builder("http://127.0.0.1:8080/api")
//!     .credentials(Credentials::new("ci", std::env::var("SECRET").unwrap_or_default()))
//!     .build()?;
//! for template in client.list_templates().await? {
//!     println!("{} {} v{}", template.id, template.name, template.version);
//! }
//! # Ok(()) }
//! ```

mod credentials;
mod datasets;
mod disk;
mod error;
mod grok;
mod http;
mod jobs;
mod login;
mod pages;
mod source;
mod templates;
mod token;
mod upload;

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use reqwest::{Method, Url};
use serde::de::DeserializeOwned;

pub use credentials::{Credentials, Secret};
pub use disk::DiskTokenStore;
pub use error::ClientError;
pub use http::{RetryPolicy, Trace};
pub use jobs::{JobFilter, JobVersion, SyncRecord, SyncStream};
pub use login::Login;
pub use source::{RemoteSource, SourceStats};
pub use templates::TemplateVersions;
pub use token::{AccessToken, DEFAULT_LIFETIME, MAX_REFRESH_MARGIN, TokenKey, TokenStore};

use http::{Answer, Http, Outgoing};
use token::Tokens;

/// A client of the service's API.
///
/// Clones share the connection pool and the token. All methods are `async` (tokio).
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

struct Inner {
    api_base: Url,
    http: Http,
    tokens: Tokens,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("api_base_url", &self.inner.api_base.as_str())
            .field("token_url", &self.inner.tokens.token_url.as_str())
            .field("credentials", &self.inner.tokens.credentials)
            .field("retry", &self.inner.http.retry)
            .field("timeout", &self.inner.http.timeout)
            .finish_non_exhaustive()
    }
}

/// Settings of a [`Client`]; [`Client::builder`] makes one.
#[derive(Clone)]
pub struct ClientBuilder {
    api_base_url: String,
    auth_base_url: Option<String>,
    credentials: Option<Credentials>,
    timeout: Duration,
    connect_timeout: Duration,
    retry: RetryPolicy,
    store: Option<Arc<dyn TokenStore>>,
    trace: Option<Trace>,
    user_agent: String,
}

impl fmt::Debug for ClientBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientBuilder")
            .field("api_base_url", &self.api_base_url)
            .field("auth_base_url", &self.auth_base_url)
            .field("credentials", &self.credentials)
            .field("timeout", &self.timeout)
            .field("connect_timeout", &self.connect_timeout)
            .field("retry", &self.retry)
            .field("token_store", &self.store.is_some())
            .finish_non_exhaustive()
    }
}

impl ClientBuilder {
    /// The identity provider's base URL: tokens come from `{url}/oauth/token`. Default: the
    /// API base URL (`jobgraph serve` answers token requests at its root and under `/api`).
    pub fn auth_base_url(mut self, url: impl Into<String>) -> Self {
        self.auth_base_url = Some(url.into());
        self
    }

    /// The client id and secret. Without credentials only `POST /v1/triggers` works.
    pub fn credentials(mut self, credentials: Credentials) -> Self {
        self.credentials = Some(credentials);
        self
    }

    /// How long one attempt may take, answer included (default 60 s).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// How long making a connection may take (default 10 s).
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// Retries (default [`RetryPolicy::default`]: 3, from 200 ms).
    pub fn retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// Where tokens are kept between runs (default: memory only).
    pub fn token_store(mut self, store: Arc<dyn TokenStore>) -> Self {
        self.store = Some(store);
        self
    }

    /// Where to report each request, retry and token event (the CLI's `-d`).
    pub fn trace(mut self, trace: Trace) -> Self {
        self.trace = Some(trace);
        self
    }

    /// The `User-Agent` header (default `jobgraph-sdk/<version>`).
    pub fn user_agent(mut self, agent: impl Into<String>) -> Self {
        self.user_agent = agent.into();
        self
    }

    /// The client. Fails on an invalid URL.
    ///
    /// TLS is rustls with the *ring* provider: if the process has not installed a rustls
    /// crypto provider, this installs *ring* as the default.
    pub fn build(self) -> Result<Client, ClientError> {
        let api_base = base_url(&self.api_base_url, "API")?;
        let auth_text = self
            .auth_base_url
            .clone()
            .unwrap_or_else(|| self.api_base_url.clone());
        let auth_base = base_url(&auth_text, "auth")?;
        let token_url = join(&auth_base, "/oauth/token")?;
        if rustls::crypto::CryptoProvider::get_default().is_none() {
            // Another thread may have installed one meanwhile: either is fine.
            let _ = rustls::crypto::ring::default_provider().install_default();
        }
        let client = reqwest::Client::builder()
            .connect_timeout(self.connect_timeout)
            .user_agent(self.user_agent)
            .http1_only()
            .build()
            .map_err(|e| ClientError::Config(http::describe(&e)))?;
        let credentials = self
            .credentials
            .unwrap_or_else(|| Credentials::without_secret(""));
        let key = TokenKey {
            client_id: credentials.client_id.clone(),
            auth_base_url: auth_base.as_str().trim_end_matches('/').to_owned(),
        };
        Ok(Client {
            inner: Arc::new(Inner {
                api_base,
                http: Http {
                    client,
                    retry: self.retry,
                    timeout: self.timeout,
                    trace: self.trace,
                },
                tokens: Tokens::new(credentials, token_url, key, self.store),
            }),
        })
    }
}

/// A base URL: `http` or `https`, no query or fragment; a trailing `/` is ignored.
fn base_url(text: &str, what: &str) -> Result<Url, ClientError> {
    let url = Url::parse(text.trim()).map_err(|e| {
        ClientError::Config(format!("the {what} base URL {text:?} is invalid: {e}"))
    })?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(ClientError::Config(format!(
            "the {what} base URL {text:?} is not http:// or https://"
        )));
    }
    if url.query().is_some() || url.fragment().is_some() || url.cannot_be_a_base() {
        return Err(ClientError::Config(format!(
            "the {what} base URL {text:?} must not have a query or fragment"
        )));
    }
    Ok(url)
}

/// `base` + `path` (which starts with `/`).
fn join(base: &Url, path: &str) -> Result<Url, ClientError> {
    let text = format!("{}{path}", base.as_str().trim_end_matches('/'));
    Url::parse(&text).map_err(|e| ClientError::Config(format!("invalid URL {text:?}: {e}")))
}

/// A path segment, percent-encoded (ids typed by a person may hold anything).
pub(crate) fn segment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// What a call sends, before a token is added.
#[derive(Clone)]
pub(crate) struct Call {
    pub method: Method,
    /// From `/v1`, segments already encoded.
    pub path: String,
    pub query: Vec<(&'static str, String)>,
    pub body: Option<(Vec<u8>, &'static str)>,
    pub auth: bool,
    pub idempotent: bool,
    /// The whole URL to request instead of the API base + `path` + `query` (a `Link` the
    /// service sent, already checked to be of the API's origin).
    pub url: Option<Url>,
}

impl Call {
    pub fn new(method: Method, path: String) -> Self {
        let idempotent = matches!(method, Method::GET | Method::DELETE | Method::HEAD);
        Call {
            method,
            path,
            query: Vec::new(),
            body: None,
            auth: true,
            idempotent,
            url: None,
        }
    }

    pub fn query(mut self, key: &'static str, value: impl Into<String>) -> Self {
        self.query.push((key, value.into()));
        self
    }

    pub fn json(mut self, body: &impl serde::Serialize) -> Result<Self, ClientError> {
        let bytes = serde_json::to_vec(body)
            .map_err(|e| ClientError::Config(format!("cannot serialize the request body: {e}")))?;
        self.body = Some((bytes, "application/json"));
        Ok(self)
    }
}

impl Client {
    /// A builder for a client of the API at `api_base_url` (for example
    /// `http://127.0.0.1:8080/api`; paths start with `/v1` after it).
    pub fn builder(api_base_url: impl Into<String>) -> ClientBuilder {
        ClientBuilder {
            api_base_url: api_base_url.into(),
            auth_base_url: None,
            credentials: None,
            timeout: Duration::from_secs(60),
            connect_timeout: Duration::from_secs(10),
            retry: RetryPolicy::default(),
            store: None,
            trace: None,
            user_agent: concat!("jobgraph-sdk/", env!("CARGO_PKG_VERSION")).to_owned(),
        }
    }

    /// The API base URL.
    pub fn api_base_url(&self) -> &str {
        self.inner.api_base.as_str()
    }

    /// The token endpoint.
    pub fn token_url(&self) -> &str {
        self.inner.tokens.token_url.as_str()
    }

    /// The client id (empty without credentials).
    pub fn client_id(&self) -> &str {
        &self.inner.tokens.credentials.client_id
    }

    /// A fresh access token (`POST {auth_base_url}/oauth/token` unless one is in memory or
    /// the store): the token endpoint's method.
    pub async fn token(&self) -> Result<AccessToken, ClientError> {
        Ok(self.inner.tokens.get(&self.inner.http).await?.token)
    }

    /// Starts a person's login (the authorization code flow with PKCE, `docs/api.md` "People,
    /// login and roles"): the address to open in a browser, and what [`Client::finish_login`]
    /// needs. `redirect_uri` is where the browser comes back (a loopback listener of the
    /// caller's).
    pub fn begin_login(&self, redirect_uri: &str) -> Result<Login, ClientError> {
        Login::new(
            &self.inner.tokens.key.auth_base_url,
            self.client_id(),
            redirect_uri,
        )
    }

    /// Ends a login: `code` and `state` as the redirect brought them. The state must be the
    /// login's; the code is exchanged (with the login's verifier) for a token and a refresh
    /// token, used from now on and saved to the token store.
    pub async fn finish_login(
        &self,
        login: &Login,
        code: &str,
        state: &str,
    ) -> Result<AccessToken, ClientError> {
        if state != login.state {
            return Err(ClientError::TokenRejected {
                url: self.token_url().to_owned(),
                status: 400,
                message: "the login came back with another state than it was sent with: it was not this login's (start it again)".into(),
            });
        }
        self.inner
            .tokens
            .exchange_code(&self.inner.http, code, &login.redirect_uri, &login.verifier)
            .await
    }

    /// Ends a person's login at the service (RFC 7009 revocation of `token`'s refresh token,
    /// which revokes every token of that login). The token store is left as it is.
    pub async fn revoke_login(&self, token: &AccessToken) -> Result<(), ClientError> {
        self.inner
            .tokens
            .revoke_login(&self.inner.http, token)
            .await
    }

    /// How many tokens this client (and its clones) fetched from the token endpoint.
    pub fn tokens_fetched(&self) -> u64 {
        self.inner.tokens.fetched()
    }

    /// Uses `token` as if it had been fetched earlier (for a token obtained elsewhere). A 401
    /// on it is followed by one new token and one retry, as for any known token.
    pub async fn set_token(&self, token: AccessToken) {
        self.inner.tokens.seed(token).await;
    }

    fn url(&self, call: &Call) -> Result<Url, ClientError> {
        if let Some(url) = &call.url {
            return Ok(url.clone());
        }
        let mut url = join(&self.inner.api_base, &call.path)?;
        if !call.query.is_empty() {
            let mut pairs = url.query_pairs_mut();
            for (k, v) in &call.query {
                pairs.append_pair(k, v);
            }
        }
        Ok(url)
    }

    /// Sends a call with a token (and the one retry after a 401 on a known token, or on one
    /// that expired while the call waited); the answer whatever its status other than 401.
    pub(crate) async fn answer(&self, call: &Call) -> Result<Answer, ClientError> {
        let inner = &*self.inner;
        let url = self.url(call)?;
        let out = |bearer: Option<String>| Outgoing {
            method: call.method.clone(),
            url: url.clone(),
            body: call.body.clone(),
            bearer,
            idempotent: call.idempotent,
        };
        if !call.auth {
            return inner.http.send(&out(None)).await;
        }
        let lease = inner.tokens.get(&inner.http).await?;
        let answer = inner
            .http
            .send(&out(Some(lease.token.secret().expose().to_owned())))
            .await?;
        if answer.status != 401 {
            return Ok(answer);
        }
        let unauthorized = |answer: Answer| ClientError::Unauthorized {
            method: call.method.to_string(),
            path: call.path.clone(),
            message: answer.error_text(&["error", "message"]),
        };
        // A token fetched for this call is wrong, unless it expired (or nearly: the service's
        // clock started it a little earlier) while the call waited, as retries after 429s can
        // outlast a short-lived token: then, as for a token reused from before, one new token
        // and one more try.
        let expired = !lease.token.is_fresh_at(std::time::SystemTime::now());
        if !lease.reused && !expired {
            return Err(unauthorized(answer));
        }
        inner.http.trace(if expired {
            "401 with a token that expired while the call waited: getting a new token, then one retry"
        } else {
            "401 with a known token: getting a new token, then one retry"
        });
        let token = inner.tokens.replace(&inner.http, &lease.token).await?;
        let answer = inner
            .http
            .send(&out(Some(token.secret().expose().to_owned())))
            .await?;
        if answer.status == 401 {
            return Err(unauthorized(answer));
        }
        Ok(answer)
    }

    /// Sends a call and reads a JSON answer of a 2xx status.
    pub(crate) async fn call<T: DeserializeOwned>(&self, call: Call) -> Result<T, ClientError> {
        let answer = self.answer(&call).await?;
        if !(200..300).contains(&answer.status) {
            return Err(answer.into_error(&call.method, &call.path));
        }
        serde_json::from_slice(&answer.body).map_err(|e| ClientError::InvalidResponse {
            method: call.method.to_string(),
            path: call.path.clone(),
            status: answer.status,
            reason: e.to_string(),
        })
    }

    /// Sends a call whose success has no body (204, or any 2xx).
    pub(crate) async fn call_empty(&self, call: Call) -> Result<(), ClientError> {
        let answer = self.answer(&call).await?;
        if !(200..300).contains(&answer.status) {
            return Err(answer.into_error(&call.method, &call.path));
        }
        Ok(())
    }

    /// Sends a call and returns the response as soon as its head arrived (for a stream), with
    /// the same token handling as [`Client::answer`] and no retries otherwise.
    pub(crate) async fn open(&self, call: &Call) -> Result<reqwest::Response, ClientError> {
        let inner = &*self.inner;
        let url = self.url(call)?;
        let out = |bearer: Option<String>| Outgoing {
            method: call.method.clone(),
            url: url.clone(),
            body: call.body.clone(),
            bearer,
            idempotent: false,
        };
        let unauthorized = |message: String| ClientError::Unauthorized {
            method: call.method.to_string(),
            path: call.path.clone(),
            message,
        };
        let lease = inner.tokens.get(&inner.http).await?;
        let response = inner
            .http
            .open(&out(Some(lease.token.secret().expose().to_owned())))
            .await?;
        if response.status().as_u16() != 401 {
            return Ok(response);
        }
        let text = read_error(response).await;
        if !lease.reused {
            return Err(unauthorized(text));
        }
        let token = inner.tokens.replace(&inner.http, &lease.token).await?;
        let response = inner
            .http
            .open(&out(Some(token.secret().expose().to_owned())))
            .await?;
        if response.status().as_u16() == 401 {
            return Err(unauthorized(read_error(response).await));
        }
        Ok(response)
    }
}

/// The error text of a response read whole.
pub(crate) async fn read_error(response: reqwest::Response) -> String {
    let status = response.status().as_u16();
    let body = response
        .bytes()
        .await
        .map(|b| b.to_vec())
        .unwrap_or_default();
    Answer {
        status,
        body,
        ..Answer::default()
    }
    .error_text(&["error", "message"])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_are_encoded() {
        assert_eq!(segment("mF3k2V9q-_x"), "mF3k2V9q-_x");
        assert_eq!(segment("a/b?c d"), "a%2Fb%3Fc%20d");
    }

    #[test]
    fn base_urls_are_checked_and_joined() {
        let url = base_url("http://127.0.0.1:8080/api/", "API").unwrap();
        assert_eq!(
            join(&url, "/v1/jobs").unwrap().as_str(),
            "http://127.0.0.1:8080/api/v1/jobs"
        );
        assert!(base_url("ftp://x", "API").is_err());
        assert!(base_url("http://x/?a=b", "API").is_err());
        assert!(base_url("not a url", "API").is_err());
    }

    #[test]
    fn debug_of_client_and_builder_hides_the_secret() {
        let builder = Client::builder("http://127.0.0.1:1")
            .credentials(Credentials::new("ci", "very-secret-value"));
        assert!(!format!("{builder:?}").contains("very-secret"));
        let client = builder.build().unwrap();
        let text = format!("{client:?}");
        assert!(
            text.contains("ci") && !text.contains("very-secret"),
            "{text}"
        );
    }
}
