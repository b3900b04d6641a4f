//! People logging in (`docs/api.md`, "People, login and roles"): the OAuth 2.0 authorization
//! code flow with PKCE (RFC 6749 §4.1, RFC 7636 with `S256` only, RFC 8252 for native apps).
//!
//! - `GET /oauth/authorize` checks the client and the redirect URI first — an unknown public
//!   client or a redirect URI not on loopback ([`redirect`]) gets an error page, never a
//!   form nor a redirect — then the rest (`response_type=code`, a `code_challenge` with
//!   `code_challenge_method=S256`), whose errors go back to the client as RFC 6749 §4.1.2.1
//!   says, and shows the login form (`form.rs`).
//! - `POST /oauth/authorize` takes the form: its CSRF token must equal the cookie set with the
//!   form (`SameSite=Strict`: another site's page cannot post it); the password is checked on
//!   the secret-verification threads within the token endpoint's budgets, against a decoy hash
//!   when there is no such user, so that neither the answer nor its time tells whether a user
//!   exists. A good password gives a single-use code (`login.codeTtlSeconds`, 60 s) sent back
//!   with a 303 to the redirect URI.
//! - The token endpoint's `authorization_code` and `refresh_token` grants are in `grants.rs`.

mod form;
pub(crate) mod grants;
pub mod redirect;

use std::collections::HashMap;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::guards::token_cache::sha256;
use crate::ids::{new_id, now_ms, random_token};
use crate::state::AppState;
use crate::store::CodeRecord;

/// The cookie that holds the login form's CSRF token.
const CSRF_COOKIE: &str = "jobgraph_login";

/// The routes: `GET` and `POST /oauth/authorize`, and again at `/authorize`, where the public
/// client sends people (`{authBaseUrl}/authorize`).
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/oauth/authorize", get(show).post(submit))
        .route("/authorize", get(show).post(submit))
}

/// The parameters of an authorization request (the query of the `GET`, hidden fields of the
/// form).
#[derive(Debug, Clone, Default)]
pub(crate) struct AuthorizeParams {
    response_type: String,
    client_id: String,
    redirect_uri: String,
    scope: String,
    state: String,
    code_challenge: String,
    code_challenge_method: String,
}

impl AuthorizeParams {
    fn from_map(map: &HashMap<String, String>) -> AuthorizeParams {
        let get = |k: &str| map.get(k).cloned().unwrap_or_default();
        AuthorizeParams {
            response_type: get("response_type"),
            client_id: get("client_id"),
            redirect_uri: get("redirect_uri"),
            scope: get("scope"),
            state: get("state"),
            code_challenge: get("code_challenge"),
            code_challenge_method: get("code_challenge_method"),
        }
    }

    fn fields(&self) -> [(&'static str, &str); 7] {
        [
            ("response_type", &self.response_type),
            ("client_id", &self.client_id),
            ("redirect_uri", &self.redirect_uri),
            ("scope", &self.scope),
            ("state", &self.state),
            ("code_challenge", &self.code_challenge),
            ("code_challenge_method", &self.code_challenge_method),
        ]
    }
}

/// What checking an authorization request found.
enum Checked {
    /// Good: show or take the form.
    Good,
    /// It cannot go back to the client: an error page.
    Page(Response),
    /// It can: the error goes back to the redirect URI.
    Back(Response),
}

fn check(state: &AppState, params: &AuthorizeParams) -> Checked {
    let login = &state.config.login;
    if params.client_id.is_empty() || !login.public_clients.contains(&params.client_id) {
        return Checked::Page(form::refusal(
            StatusCode::BAD_REQUEST,
            &format!(
                "client_id {:?} is not a public client of this service (login.publicClients: {})",
                params.client_id,
                login.public_clients.join(", ")
            ),
        ));
    }
    if let Err(why) = redirect::loopback(&params.redirect_uri) {
        return Checked::Page(form::refusal(StatusCode::BAD_REQUEST, &why));
    }
    let back = |error: &str, description: &str| {
        Checked::Back(redirect_back(
            &params.redirect_uri,
            &[
                ("error", error),
                ("error_description", description),
                ("state", &params.state),
            ],
        ))
    };
    if params.response_type != "code" {
        return back(
            "unsupported_response_type",
            "response_type must be code (the authorization code flow)",
        );
    }
    if params.code_challenge_method != "S256" {
        return back(
            "invalid_request",
            "PKCE is required with code_challenge_method=S256 (plain is not accepted)",
        );
    }
    let c = &params.code_challenge;
    if c.len() != 43
        || !c
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        return back(
            "invalid_request",
            "code_challenge must be BASE64URL(SHA-256(code_verifier)) without padding: 43 characters",
        );
    }
    Checked::Good
}

/// A 303 to `uri` with `pairs` added to its query (empty values left out).
fn redirect_back(uri: &str, pairs: &[(&str, &str)]) -> Response {
    let query = serde_urlencoded::to_string(
        pairs
            .iter()
            .filter(|(_, v)| !v.is_empty())
            .collect::<Vec<_>>(),
    )
    .unwrap_or_default();
    let joiner = if uri.contains('?') { '&' } else { '?' };
    let location = format!("{uri}{joiner}{query}");
    let mut response = StatusCode::SEE_OTHER.into_response();
    if let Ok(value) = HeaderValue::from_str(&location) {
        response.headers_mut().insert(header::LOCATION, value);
    }
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// The organization a redirect URI names (`http://{org}.app.localhost:…`, the public
/// client's), to fill the form in.
fn organization_hint(uri: &str) -> String {
    uri.strip_prefix("http://")
        .and_then(|rest| rest.split([':', '/']).next())
        .and_then(|host| host.strip_suffix(".app.localhost"))
        .unwrap_or_default()
        .to_owned()
}

/// A new CSRF token (`None`: no random source, logged).
fn new_csrf() -> Option<String> {
    random_token(24)
        .map_err(|e| tracing::error!("login: no random source: {e}"))
        .ok()
}

fn unavailable() -> Response {
    form::refusal(
        StatusCode::SERVICE_UNAVAILABLE,
        "the service cannot make a login form now; try again",
    )
}

/// `GET /oauth/authorize`: the login form.
async fn show(
    State(state): State<AppState>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let params = AuthorizeParams::from_map(&query);
    match check(&state, &params) {
        Checked::Page(r) | Checked::Back(r) => r,
        Checked::Good => match new_csrf() {
            Some(csrf) => form::login(
                &params,
                &csrf,
                &organization_hint(&params.redirect_uri),
                "",
                None,
                StatusCode::OK,
            ),
            None => unavailable(),
        },
    }
}

/// The CSRF cookie's value.
fn csrf_cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == CSRF_COOKIE)
        .map(|(_, value)| value.to_owned())
}

/// Equal, in a time that does not depend on where they differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// `POST /oauth/authorize`: the form taken; a code back to the client, or the form again.
async fn submit(State(state): State<AppState>, request: axum::extract::Request) -> Response {
    let address = state.throttle.request_address(&request);
    let headers = request.headers().clone();
    let limit = 64 * 1024;
    let body: Bytes = match axum::body::to_bytes(request.into_body(), limit).await {
        Ok(body) => body,
        Err(_) => {
            return form::refusal(StatusCode::PAYLOAD_TOO_LARGE, "the form is too large");
        }
    };
    let fields: HashMap<String, String> = match serde_urlencoded::from_bytes(&body) {
        Ok(fields) => fields,
        Err(e) => {
            return form::refusal(
                StatusCode::BAD_REQUEST,
                &format!("the form does not read (application/x-www-form-urlencoded): {e}"),
            );
        }
    };
    let params = AuthorizeParams::from_map(&fields);
    match check(&state, &params) {
        Checked::Page(r) | Checked::Back(r) => return r,
        Checked::Good => {}
    }
    let posted = fields.get("csrf").map(String::as_str).unwrap_or_default();
    let cookie = csrf_cookie(&headers).unwrap_or_default();
    if posted.is_empty() || !same(posted, &cookie) {
        tracing::warn!(target: "jobgraph::auth", "login refused: the form's CSRF token does not match its cookie");
        return form::refusal(
            StatusCode::FORBIDDEN,
            "this form was not sent by the login page of this service (its CSRF token does not match): open the login page again",
        );
    }
    let organization = fields.get("organization").cloned().unwrap_or_default();
    let username = fields.get("username").cloned().unwrap_or_default();
    let password = fields.get("password").cloned().unwrap_or_default();
    let again = |error: &str, status: StatusCode| match new_csrf() {
        Some(csrf) => form::login(
            &params,
            &csrf,
            &organization,
            &username,
            Some(error),
            status,
        ),
        None => unavailable(),
    };
    let user =
        match grants::check_password(&state, &organization, &username, password, address).await {
            Ok(Some(user)) => user,
            Ok(None) => {
                return again(
                    "Wrong organization, user name or password.",
                    StatusCode::UNAUTHORIZED,
                );
            }
            Err(grants::Refused::Throttled(seconds)) => {
                let mut r = again(
                    &format!("Too many attempts: try again in {seconds} s."),
                    StatusCode::TOO_MANY_REQUESTS,
                );
                r.headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
                return r;
            }
            Err(grants::Refused::Failed(why)) => {
                tracing::warn!(target: "jobgraph::auth", "login failed: {why}");
                return again(
                    "The service cannot check passwords now; try again.",
                    StatusCode::SERVICE_UNAVAILABLE,
                );
            }
        };
    let (code, family) = match (random_token(32), new_id()) {
        (Ok(code), Ok(family)) => (code, family),
        _ => {
            return again(
                "The service cannot log you in now; try again.",
                StatusCode::SERVICE_UNAVAILABLE,
            );
        }
    };
    let ttl_ms =
        i64::try_from(state.config.login.code_ttl_seconds.saturating_mul(1000)).unwrap_or(60_000);
    let record = CodeRecord {
        code_hash: sha256(&code),
        client_id: params.client_id.clone(),
        redirect_uri: params.redirect_uri.clone(),
        challenge: params.code_challenge.clone(),
        organization: user.organization.clone(),
        user: user.name.clone(),
        family,
        expires_at_ms: now_ms().saturating_add(ttl_ms),
    };
    if let Err(e) = state.store.put_code(record).await {
        tracing::warn!(target: "jobgraph::auth", "login: could not store the code: {e}");
        return again(
            "The service cannot log you in now; try again.",
            StatusCode::SERVICE_UNAVAILABLE,
        );
    }
    tracing::info!(target: "jobgraph::auth", user = %user.name, organization = %user.organization, client_id = %params.client_id, "login: a code given");
    redirect_back(
        &params.redirect_uri,
        &[("code", &code), ("state", &params.state)],
    )
}
