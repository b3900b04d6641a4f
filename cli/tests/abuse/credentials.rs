//! Row 7: credentials have a lifecycle. A client whose secret or organization changed in the
//! configuration loses the tokens issued before (they answered 401 only at expiry, 24 h
//! later); a client no longer configured is removed with its tokens; `POST /oauth/revoke`
//! (RFC 7009) ends one token, spoken to by a standard OAuth 2.0 client (the `oauth2` crate).

use std::sync::OnceLock;

use serde_json::json;

use crate::common::{Server, request};

#[test]
fn a_restart_with_a_new_secret_or_without_a_client_revokes_its_tokens() {
    let _one = crate::one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    let before = [
        "--client",
        "rot-a:OLD-SECRET:rot-org-a",
        "--client",
        "rot-gone:GONE-SECRET:rot-org-a",
        "--client",
        "rot-kept:KEPT-SECRET:rot-org-a",
    ];
    let (old, gone, kept) = {
        let server = Server::start_in(data, &before);
        let old = server.token("rot-a", "OLD-SECRET");
        let gone = server.token("rot-gone", "GONE-SECRET");
        let kept = server.token("rot-kept", "KEPT-SECRET");
        let r = server.call(
            "POST",
            "/v1/templates",
            Some(&old),
            Some(&crate::common::filter_template("org-a-secret-data")),
        );
        assert_eq!(r.status, 201, "{}", r.body);
        (old, gone, kept)
    };
    // The probe's case: the same id now belongs to organization B with a new secret.
    let server = Server::start_in(
        data,
        &[
            "--client",
            "rot-a:NEW-SECRET:rot-org-b",
            "--client",
            "rot-kept:KEPT-SECRET:rot-org-a",
        ],
    );
    eprintln!("credentials: restart banner {:?}", server.banner);
    let r = server.call("GET", "/v1/templates", Some(&old), None);
    assert_eq!(r.status, 401, "the old token still reads: {}", r.body);
    assert!(!r.body.contains("org-a-secret-data"));
    let r = server.call("GET", "/v1/templates", Some(&gone), None);
    assert_eq!(
        r.status, 401,
        "a removed client's token still reads: {}",
        r.body
    );
    // An unchanged client keeps its tokens.
    let r = server.call("GET", "/v1/templates", Some(&kept), None);
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.contains("org-a-secret-data"));
    // The new credentials work, and see organization B only.
    let new = server.token("rot-a", "NEW-SECRET");
    let r = server.call("GET", "/v1/templates", Some(&new), None);
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(!r.body.contains("org-a-secret-data"));
    for (id, secret) in [("rot-a", "OLD-SECRET"), ("rot-gone", "GONE-SECRET")] {
        let r = server.call(
            "POST",
            "/oauth/token",
            None,
            Some(&json!({"client_id": id, "client_secret": secret,
                         "grant_type": "client_credentials"})),
        );
        assert_eq!(r.status, 401, "{id}: {}", r.body);
        assert_eq!(r.json()["error"], "invalid_client", "{}", r.body);
    }
    let banner = server.banner.join("\n");
    assert!(
        banner.contains("client \"rot-a\": its secret or organization changed; 1 token(s)"),
        "{banner}"
    );
    assert!(
        banner
            .contains("client \"rot-gone\" is no longer configured: removed, with its 1 token(s)"),
        "{banner}"
    );
}

fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        Server::start(&[
            "--client",
            "rev-a:rev-a-secret:rev-org",
            "--client",
            "rev-b:rev-b-secret:rev-org",
        ])
    })
}

/// The `oauth2` crate's request sent to the server on loopback. The crate insists on an
/// `https` revocation URL (RFC 7009 §2); the transport is ours, so the scheme is only a name.
fn transport(req: oauth2::HttpRequest) -> Result<oauth2::HttpResponse, std::io::Error> {
    let path = req.uri().path_and_query().map_or("/", |p| p.as_str());
    let headers: Vec<(String, String)> = req
        .headers()
        .iter()
        .map(|(k, v)| (k.as_str().to_owned(), v.to_str().unwrap_or("").to_owned()))
        .collect();
    let r = request(
        server().addr,
        req.method().as_str(),
        path,
        &headers,
        Some(req.body()),
    );
    let mut answer = oauth2::http::Response::builder().status(r.status);
    for (k, v) in &r.headers {
        answer = answer.header(k, v);
    }
    answer
        .body(r.body.into_bytes())
        .map_err(std::io::Error::other)
}

fn revoke(id: &str, secret: &str, token: &str) -> Result<(), String> {
    use oauth2::basic::BasicClient;
    use oauth2::{
        AccessToken, AuthType, ClientId, ClientSecret, RevocationUrl, StandardRevocableToken,
    };
    let client = BasicClient::new(ClientId::new(id.into()))
        .set_client_secret(ClientSecret::new(secret.into()))
        .set_revocation_url(
            RevocationUrl::new("https://jobgraph.test/oauth/revoke".into()).unwrap(),
        )
        .set_auth_type(AuthType::BasicAuth);
    client
        .revoke_token(StandardRevocableToken::AccessToken(AccessToken::new(
            token.into(),
        )))
        .map_err(|e| e.to_string())?
        .request(&transport)
        .map_err(|e| match e {
            oauth2::RequestTokenError::ServerResponse(e) => e.error().to_string(),
            other => format!("{other:?}"),
        })
}

#[test]
fn revoke_ends_a_token_and_answers_200_for_unknown_ones() {
    let _one = crate::one_at_a_time();
    let server = server();
    let token = server.token("rev-a", "rev-a-secret");
    let other = server.token("rev-b", "rev-b-secret");
    assert_eq!(
        server
            .call("GET", "/v1/templates", Some(&token), None)
            .status,
        200
    );
    // Wrong client credentials: 401 invalid_client, and the token keeps working.
    assert_eq!(
        revoke("rev-a", "wrong", &token),
        Err("invalid_client".into())
    );
    assert_eq!(
        revoke("nobody", "wrong", &token),
        Err("invalid_client".into())
    );
    assert_eq!(
        server
            .call("GET", "/v1/templates", Some(&token), None)
            .status,
        200
    );
    // Another client cannot revoke it (answered like an unknown token).
    assert_eq!(revoke("rev-b", "rev-b-secret", &token), Ok(()));
    assert_eq!(
        server
            .call("GET", "/v1/templates", Some(&token), None)
            .status,
        200
    );
    // Its own client can: 401 afterwards, the other client's token unaffected.
    assert_eq!(revoke("rev-a", "rev-a-secret", &token), Ok(()));
    let r = server.call("GET", "/v1/templates", Some(&token), None);
    assert_eq!(r.status, 401, "{}", r.body);
    assert_eq!(
        server
            .call("GET", "/v1/templates", Some(&other), None)
            .status,
        200
    );
    // Unknown and already revoked tokens: 200.
    assert_eq!(revoke("rev-a", "rev-a-secret", "no-such-token"), Ok(()));
    assert_eq!(revoke("rev-a", "rev-a-secret", &token), Ok(()));
    // The form body with the credentials in it, and a missing token.
    let form = |body: &str| {
        request(
            server.addr,
            "POST",
            "/oauth/revoke",
            &[(
                "Content-Type".into(),
                "application/x-www-form-urlencoded".into(),
            )],
            Some(body.as_bytes()),
        )
    };
    let r = form(&format!(
        "token={other}&token_type_hint=access_token&client_id=rev-b&client_secret=rev-b-secret"
    ));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        server
            .call("GET", "/v1/templates", Some(&other), None)
            .status,
        401
    );
    let r = form("client_id=rev-b&client_secret=rev-b-secret");
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(r.json()["error"], "invalid_request");
    let r = form("token=x");
    assert_eq!(r.status, 401, "{}", r.body);
    assert_eq!(r.json()["error"], "invalid_client");
}

#[test]
fn revoke_is_in_the_openapi_document() {
    let _one = crate::one_at_a_time();
    let r = server().call("GET", "/openapi.json", None, None);
    let doc = r.json();
    let op = &doc["paths"]["/oauth/revoke"]["post"];
    for status in ["200", "400", "401", "429"] {
        assert!(op["responses"][status].is_object(), "{status}: {op}");
    }
    assert!(op["responses"]["429"]["headers"]["Retry-After"].is_object());
}
