//! Tokens, bearer authentication, the OpenAPI document, routing.

use super::*;

#[test]
fn health_openapi_and_api_prefix() {
    for path in ["/healthz", "/api/healthz"] {
        let r = call("GET", path, None, None);
        assert_eq!((r.status, r.json()["status"].clone()), (200, json!("ok")));
        let store = if harness::postgres_url().is_some() {
            "postgres"
        } else {
            "sqlite"
        };
        assert_eq!(r.json()["database"], store);
    }
    let r = call("GET", "/openapi.json", None, None);
    assert_eq!(r.status, 200);
    let doc = r.json();
    assert_eq!(doc["openapi"], "3.1.0");
    let documented: BTreeSet<(String, String)> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, item)| {
            item.as_object()
                .unwrap()
                .keys()
                .map(move |m| (m.to_uppercase(), path.clone()))
        })
        .collect();
    let expected: BTreeSet<(String, String)> = [
        ("POST", "/oauth/token"),
        ("POST", "/oauth/revoke"),
        ("GET", "/healthz"),
        ("POST", "/v1/templates"),
        ("GET", "/v1/templates"),
        ("GET", "/v1/templates/{id}"),
        ("PUT", "/v1/templates/{id}"),
        ("DELETE", "/v1/templates/{id}"),
        ("POST", "/v1/templates/test"),
        ("POST", "/v1/jobs"),
        ("POST", "/v1/jobs/async"),
        ("POST", "/v1/jobs/sync"),
        ("POST", "/v1/jobs/sync/heartbeat"),
        ("GET", "/v1/jobs"),
        ("GET", "/v1/jobs/{id}"),
        ("PUT", "/v1/jobs/{id}"),
        ("DELETE", "/v1/jobs/{id}"),
        ("GET", "/v1/jobs/{id}/tap"),
        ("GET", "/metrics"),
        ("POST", "/v1/triggers"),
        ("POST", "/v1/datasets"),
        ("GET", "/v1/datasets"),
        ("GET", "/v1/datasets/{id}"),
        ("PUT", "/v1/datasets/{id}"),
        ("DELETE", "/v1/datasets/{id}"),
        ("GET", "/v1/datasets/{id}/files"),
        ("POST", "/v1/datasets/{id}/load"),
        ("GET", "/v1/integrations"),
        ("POST", "/v1/grok/parse/batch"),
        ("GET", "/v1/integrations/{id}"),
        ("GET", "/v1/integrations/{type}/{id}"),
        ("GET", "/v1/organization"),
    ]
    .iter()
    .map(|(m, p)| ((*m).to_owned(), (*p).to_owned()))
    .collect();
    assert_eq!(documented, expected);
    // Every operation documents the 503 of an unreachable database.
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            assert!(
                operation["responses"]["503"].is_object(),
                "{method} {path} lacks its 503"
            );
        }
    }
    // Every documented operation is routed, at the root and under /api (401 or 4xx, never
    // the 404/405 of an unknown route).
    for (method, path) in &documented {
        let path = path
            .replace("{id}", "nosuchid")
            .replace("{type}", "datadog");
        for prefix in ["", "/api"] {
            let r = call(method, &format!("{prefix}{path}"), None, None);
            assert!(
                r.status != 405 && !(r.status == 404 && r.body.contains("no such endpoint")),
                "{method} {prefix}{path}: {} {}",
                r.status,
                r.body
            );
        }
    }
    // Every answer the server can give is documented: 401 wherever a token is needed, 400,
    // 413 and 415 wherever a body is read, and every error as an ErrorBody.
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let responses = operation["responses"].as_object().unwrap();
            let has = |status: &str| responses.contains_key(status);
            let at = format!("{method} {path}");
            if operation.get("security").is_some() {
                assert!(has("401"), "{at}: 401 not documented");
            }
            if operation.get("requestBody").is_some() {
                for status in ["400", "413", "415"] {
                    assert!(has(status), "{at}: {status} not documented");
                }
            }
            for (status, response) in responses {
                if status.starts_with('4') || status.starts_with('5') {
                    let schema = &response["content"]["application/json"]["schema"]["$ref"];
                    assert_eq!(schema, "#/components/schemas/ErrorBody", "{at} {status}");
                }
            }
        }
    }
    // Bodies are documented.
    assert!(doc["components"]["schemas"]["TemplateOut"].is_object());
    assert!(doc["components"]["schemas"]["ErrorBody"].is_object());
    assert!(doc["components"]["securitySchemes"]["bearer"].is_object());
}

#[test]
fn token_endpoint_forms_and_errors() {
    let body = json!({"client_id": "alice", "client_secret": "alice-secret-1",
                      "audience": "service", "grant_type": "client_credentials"});
    let r = call("POST", "/oauth/token", None, Some(&body));
    assert_eq!(r.status, 200, "{}", r.body);
    let token = r.json();
    assert_eq!(token["token_type"], "Bearer");
    assert_eq!(token["expires_in"], 86400);
    assert_eq!(token["scope"], "service");
    // RFC 6749 §5.1: never cached.
    assert_eq!(r.header("cache-control"), Some("no-store"));
    assert_eq!(r.header("pragma"), Some("no-cache"));
    let access = token["access_token"].as_str().unwrap();
    assert!(
        access.len() >= 43
            && access
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    );
    let r = call("GET", "/v1/templates", Some(access), None);
    assert_eq!(r.status, 200);

    // Form-encoded, and HTTP Basic (RFC 6749 §2.3.1).
    let form = "grant_type=client_credentials&client_id=alice&client_secret=alice-secret-1&audience=service";
    let r = raw(
        "POST",
        "/oauth/token",
        &[("Content-Type", "application/x-www-form-urlencoded")],
        form.as_bytes(),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    // base64("bob:bob-secret-2")
    let r = raw(
        "POST",
        "/api/oauth/token",
        &[
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("Authorization", "Basic Ym9iOmJvYi1zZWNyZXQtMg=="),
        ],
        b"grant_type=client_credentials",
    );
    assert_eq!(r.status, 200, "{}", r.body);

    // RFC 6749 §2.3.1: the id and secret are form-encoded before HTTP Basic (`%2D` is `-`).
    // base64("alice:alice%2Dsecret-1")
    let r = raw(
        "POST",
        "/oauth/token",
        &[
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("Authorization", "Basic YWxpY2U6YWxpY2UlMkRzZWNyZXQtMQ=="),
        ],
        b"grant_type=client_credentials",
    );
    assert_eq!(r.status, 200, "{}", r.body);

    let mut wrong = body.clone();
    wrong["client_secret"] = json!("nope");
    let r = call("POST", "/oauth/token", None, Some(&wrong));
    assert_eq!((r.status, r.error()), (401, "invalid_client".to_owned()));
    assert_eq!(
        r.json()["error_description"],
        "unknown client or wrong secret"
    );
    assert_eq!(r.header("cache-control"), Some("no-store"));
    // A wrong secret by HTTP Basic: 401 with the Basic challenge.
    let r = raw(
        "POST",
        "/oauth/token",
        &[
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("Authorization", "Basic Ym9iOndyb25n"),
        ],
        b"grant_type=client_credentials",
    );
    assert_eq!((r.status, r.error()), (401, "invalid_client".to_owned()));
    assert_eq!(r.header("www-authenticate"), Some("Basic"));
    // A key given twice is refused, not silently read as its last value.
    let r = raw(
        "POST",
        "/oauth/token",
        &[("Content-Type", "application/json")],
        br#"{"client_id": "mallory", "client_id": "alice", "client_secret": "alice-secret-1", "grant_type": "client_credentials"}"#,
    );
    assert_eq!((r.status, r.error()), (400, "invalid_request".to_owned()));
    assert!(
        r.json()["error_description"]
            .as_str()
            .unwrap()
            .contains("duplicate key")
    );
    wrong["client_id"] = json!("mallory");
    let r = call("POST", "/oauth/token", None, Some(&wrong));
    assert_eq!((r.status, r.error()), (401, "invalid_client".to_owned()));
    let mut grant = body.clone();
    grant["grant_type"] = json!("password");
    let r = call("POST", "/oauth/token", None, Some(&grant));
    assert_eq!(
        (r.status, r.error()),
        (400, "unsupported_grant_type".to_owned())
    );
    let r = call(
        "POST",
        "/oauth/token",
        None,
        Some(&json!({"client_id": "alice"})),
    );
    assert_eq!((r.status, r.error()), (400, "invalid_request".to_owned()));
    // No client authentication at all: RFC 6749 §5.2 `invalid_client`, 401.
    let r = call(
        "POST",
        "/oauth/token",
        None,
        Some(&json!({"grant_type": "client_credentials"})),
    );
    assert_eq!((r.status, r.error()), (401, "invalid_client".to_owned()));
    let r = raw(
        "POST",
        "/oauth/token",
        &[("Content-Type", "application/json")],
        b"{not json",
    );
    assert_eq!((r.status, r.error()), (400, "invalid_request".to_owned()));
    let r = raw(
        "POST",
        "/oauth/token",
        &[("Content-Type", "text/plain")],
        b"hello",
    );
    assert_eq!(r.status, 415);
    r.error();
}

/// The `oauth2` crate, as an OAuth 2.0 client library meets the service: the token request
/// it builds (HTTP Basic by default, or the credentials in the form body), the answer it
/// parses, and the RFC 6749 error codes it classifies. Only the transport is ours (one
/// loopback request per call); nothing of the request or the answer is written by hand.
#[test]
fn a_standard_oauth2_client_gets_tokens_and_reads_the_errors() {
    use oauth2::basic::{BasicClient, BasicErrorResponse, BasicErrorResponseType, BasicTokenType};
    use oauth2::{
        AuthType, ClientId, ClientSecret, RequestTokenError, ResourceOwnerPassword,
        ResourceOwnerUsername, Scope, TokenResponse, TokenUrl,
    };

    let transport = |req: oauth2::HttpRequest| -> Result<oauth2::HttpResponse, std::io::Error> {
        let path = req.uri().path_and_query().map_or("/", |p| p.as_str());
        let headers: Vec<(String, String)> = req
            .headers()
            .iter()
            .map(|(k, v)| (k.as_str().to_owned(), v.to_str().unwrap().to_owned()))
            .collect();
        let r = server().request(req.method().as_str(), path, &headers, Some(req.body()));
        let mut answer = oauth2::http::Response::builder().status(r.status);
        for (k, v) in &r.headers {
            answer = answer.header(k, v);
        }
        answer
            .body(r.body.into_bytes())
            .map_err(std::io::Error::other)
    };
    let client = |secret: &str, auth: AuthType| {
        BasicClient::new(ClientId::new("alice".into()))
            .set_client_secret(ClientSecret::new(secret.into()))
            .set_token_uri(TokenUrl::new(format!("{}/oauth/token", server().url())).unwrap())
            .set_auth_type(auth)
    };
    fn error_of<T>(
        result: Result<T, RequestTokenError<std::io::Error, BasicErrorResponse>>,
    ) -> BasicErrorResponseType {
        match result {
            Err(RequestTokenError::ServerResponse(e)) => e.error().clone(),
            Err(other) => panic!("expected an RFC 6749 error answer, got {other:?}"),
            Ok(_) => panic!("expected an RFC 6749 error answer, got a token"),
        }
    }

    for auth in [AuthType::BasicAuth, AuthType::RequestBody] {
        let token = client("alice-secret-1", auth.clone())
            .exchange_client_credentials()
            .add_extra_param("audience", "service")
            .request(&transport)
            .unwrap_or_else(|e| panic!("{auth:?}: {e:?}"));
        assert_eq!(token.token_type(), &BasicTokenType::Bearer, "{auth:?}");
        assert_eq!(token.expires_in(), Some(Duration::from_secs(86_400)));
        assert_eq!(token.scopes(), Some(&vec![Scope::new("service".into())]));
        let r = call(
            "GET",
            "/v1/templates",
            Some(token.access_token().secret()),
            None,
        );
        assert_eq!(r.status, 200, "{auth:?}: {}", r.body);

        // Without `audience` (a generic client does not send it) the token is the same kind.
        let token = client("alice-secret-1", auth.clone())
            .exchange_client_credentials()
            .request(&transport)
            .unwrap_or_else(|e| panic!("{auth:?} without audience: {e:?}"));
        assert_eq!(token.scopes(), Some(&vec![Scope::new("service".into())]));

        let wrong = client("not-the-secret", auth.clone())
            .exchange_client_credentials()
            .request(&transport);
        assert_eq!(error_of(wrong), BasicErrorResponseType::InvalidClient);

        let scope = client("alice-secret-1", auth.clone())
            .exchange_client_credentials()
            .add_scope(Scope::new("admin".into()))
            .request(&transport);
        assert_eq!(error_of(scope), BasicErrorResponseType::InvalidScope);

        let username = ResourceOwnerUsername::new("alice".into());
        let password = ResourceOwnerPassword::new("alice-secret-1".into());
        let grant = client("alice-secret-1", auth.clone())
            .exchange_password(&username, &password)
            .request(&transport);
        assert_eq!(
            error_of(grant),
            BasicErrorResponseType::UnsupportedGrantType
        );
    }
}

#[test]
fn v1_requires_a_bearer_token() {
    let cases = [
        ("GET", "/v1/templates"),
        ("POST", "/v1/templates"),
        ("GET", "/v1/templates/x"),
        ("PUT", "/v1/templates/x"),
        ("DELETE", "/v1/templates/x"),
        ("POST", "/v1/templates/test"),
        ("GET", "/v1/jobs"),
        ("POST", "/v1/jobs"),
        ("POST", "/v1/jobs/async"),
        ("POST", "/v1/jobs/sync"),
        ("POST", "/v1/jobs/sync/heartbeat"),
        ("GET", "/v1/jobs/x"),
        ("PUT", "/v1/jobs/x"),
        ("DELETE", "/v1/jobs/x"),
        ("GET", "/v1/jobs/x/tap"),
        ("GET", "/metrics"),
    ];
    for (method, path) in cases {
        let r = call(method, path, None, Some(&json!({})));
        assert_eq!(r.status, 401, "{method} {path}: {}", r.body);
        assert_eq!(
            r.header("www-authenticate"),
            Some("Bearer"),
            "{method} {path}"
        );
        assert!(r.error().contains("Authorization"), "{}", r.body);
        let r = call(method, path, Some("not-a-token"), Some(&json!({})));
        assert_eq!(r.status, 401, "{method} {path}");
        assert!(r.header("www-authenticate").unwrap().starts_with("Bearer"));
    }
    let r = raw(
        "GET",
        "/v1/templates",
        &[("Authorization", "Basic abc")],
        b"",
    );
    assert_eq!(r.status, 401);
    // Triggers need no token, but name a job (which gives them an organization).
    let template = create_template(alice(), &filter_template("triggered"));
    let job = call(
        "POST",
        "/v1/jobs",
        Some(alice()),
        Some(&job_using(
            "triggered",
            template["id"].as_str().unwrap(),
            "error",
        )),
    );
    assert_eq!(job.status, 201, "{}", job.body);
    let job = job.json()["id"].as_str().unwrap().to_owned();
    let r = call(
        "POST",
        &format!("/v1/triggers?job={job}"),
        None,
        Some(&json!({"event": "deploy", "n": 1})),
    );
    assert_eq!(r.status, 202, "{}", r.body);
    assert_eq!(r.json()["id"].as_str().unwrap().len(), 16);
    let r = raw(
        "POST",
        &format!("/api/v1/triggers?job={job}"),
        &[("Content-Type", "application/json")],
        b"[1",
    );
    assert_eq!(r.status, 400);
    let r = call("POST", "/v1/triggers", None, Some(&json!({"n": 1})));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.error().contains("?job=JOB_ID"), "{}", r.body);
    let r = call(
        "POST",
        "/v1/triggers?job=nope",
        None,
        Some(&json!({"n": 1})),
    );
    assert_eq!(r.status, 404, "{}", r.body);
}

#[test]
fn unknown_routes_and_methods_answer_json() {
    let r = call("GET", "/v2/nothing", Some(alice()), None);
    assert_eq!(r.status, 404);
    r.error();
    let r = call("PATCH", "/v1/templates", Some(alice()), None);
    assert_eq!(r.status, 405);
    assert_eq!(r.error(), "method not allowed");
    let r = call("GET", "/api/v1/jobs/sync", Some(alice()), None);
    assert_eq!(r.status, 405);
}
