//! The service's endpoints against the real `jobgraph serve` binary on a loopback port: one
//! server for the whole file, two organizations (`acme`: alice; `globex`: bob).

mod common;

use std::collections::BTreeSet;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::{Response, Server, filter_template, job_using, request};
use serde_json::{Value, json};

fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        Server::start(&[
            "--client",
            "alice:alice-secret-1:acme",
            "--client",
            "bob:bob-secret-2:globex",
        ])
    })
}

fn alice() -> &'static str {
    static TOKEN: OnceLock<String> = OnceLock::new();
    TOKEN.get_or_init(|| server().token("alice", "alice-secret-1"))
}

fn bob() -> &'static str {
    static TOKEN: OnceLock<String> = OnceLock::new();
    TOKEN.get_or_init(|| server().token("bob", "bob-secret-2"))
}

fn call(method: &str, path: &str, token: Option<&str>, body: Option<&Value>) -> Response {
    server().call(method, path, token, body)
}

fn create_template(token: &str, body: &Value) -> Value {
    let r = call("POST", "/v1/templates", Some(token), Some(body));
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()
}

fn raw(method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Response {
    let headers: Vec<(String, String)> = headers
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    request(server().addr, method, path, &headers, Some(body))
}

#[test]
fn health_openapi_and_api_prefix() {
    for path in ["/healthz", "/api/healthz"] {
        let r = call("GET", path, None, None);
        assert_eq!((r.status, r.json()["status"].clone()), (200, json!("ok")));
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
        ("GET", "/v1/jobs"),
        ("GET", "/v1/jobs/{id}"),
        ("PUT", "/v1/jobs/{id}"),
        ("DELETE", "/v1/jobs/{id}"),
        ("POST", "/v1/triggers"),
    ]
    .iter()
    .map(|(m, p)| ((*m).to_owned(), (*p).to_owned()))
    .collect();
    assert_eq!(documented, expected);
    // Every documented operation is routed, at the root and under /api (401 or 4xx, never
    // the 404/405 of an unknown route).
    for (method, path) in &documented {
        let path = path.replace("{id}", "nosuchid");
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

    let mut wrong = body.clone();
    wrong["client_secret"] = json!("nope");
    let r = call("POST", "/oauth/token", None, Some(&wrong));
    assert_eq!((r.status, r.error()), (401, "invalid_client".to_owned()));
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
        ("GET", "/v1/jobs/x"),
        ("PUT", "/v1/jobs/x"),
        ("DELETE", "/v1/jobs/x"),
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
    // Triggers need no token.
    let r = call(
        "POST",
        "/v1/triggers",
        None,
        Some(&json!({"event": "deploy", "n": 1})),
    );
    assert_eq!(r.status, 202, "{}", r.body);
    assert_eq!(r.json()["id"].as_str().unwrap().len(), 16);
    let r = raw(
        "POST",
        "/api/v1/triggers",
        &[("Content-Type", "application/json")],
        b"[1",
    );
    assert_eq!(r.status, 400);
}

#[test]
fn templates_lifecycle() {
    let token = alice();
    let created = create_template(token, &filter_template("Errors"));
    let id = created["id"].as_str().unwrap().to_owned();
    assert_eq!(id.len(), 16);
    assert!(
        id.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    );
    assert_eq!(created["version"], 1);
    assert_eq!(created["organizationId"], "acme");
    assert_eq!(created["isLatest"], true);
    let core = jobgraph_core::Template {
        template: created["template"].as_str().unwrap().into(),
        input_schema: Some(created["inputSchema"].clone()),
        ..Default::default()
    };
    assert_eq!(created["sourceHash"], core.source_hash());

    let mut v2 = filter_template("Errors v2");
    v2["version"] = json!(2);
    v2["template"] = json!(
        "({vertices: [{type: 'logs-filter', name: 'f', query: {type: 'simple-query', query: 'v2:' + level}}], edges: []})"
    );
    let r = call(
        "PUT",
        &format!("/v1/templates/{id}"),
        Some(token),
        Some(&v2),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["version"], 2);
    assert_ne!(r.json()["sourceHash"], created["sourceHash"]);
    assert_eq!(r.json()["createdAt"], created["createdAt"]);
    // A stale editor: version 2 again is a conflict naming the current version.
    let r = call(
        "PUT",
        &format!("/v1/templates/{id}"),
        Some(token),
        Some(&v2),
    );
    assert_eq!(r.status, 409);
    assert_eq!(r.json()["currentVersion"], 2);
    assert!(r.error().contains("version 2"), "{}", r.body);
    // Without `version`: appends.
    let r = call(
        "PUT",
        &format!("/api/v1/templates/{id}"),
        Some(token),
        Some(&filter_template("Errors v3")),
    );
    assert_eq!((r.status, r.json()["version"].clone()), (200, json!(3)));

    let r = call("GET", &format!("/v1/templates/{id}"), Some(token), None);
    let versions: Vec<_> = r.json()["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["version"].as_u64().unwrap())
        .collect();
    assert_eq!(versions, [1, 2, 3]);
    assert_eq!(r.json()["items"][0]["isLatest"], false);
    let r = call(
        "GET",
        &format!("/v1/templates/{id}?latest=true"),
        Some(token),
        None,
    );
    assert_eq!(r.json()["items"][0]["version"], 3);
    assert_eq!(r.json()["items"].as_array().unwrap().len(), 1);
    let r = call(
        "GET",
        &format!("/v1/templates/{id}?version=2"),
        Some(token),
        None,
    );
    assert_eq!(r.json()["items"][0]["name"], "Errors v2");
    let r = call(
        "GET",
        &format!("/v1/templates/{id}?version=9"),
        Some(token),
        None,
    );
    assert_eq!(r.status, 404);
    r.error();
    let r = call(
        "GET",
        &format!("/v1/templates/{id}?version=zero"),
        Some(token),
        None,
    );
    assert_eq!(r.status, 400);

    let r = call("GET", "/v1/templates", Some(token), None);
    let item = r.json()["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == id.as_str())
        .cloned()
        .unwrap();
    assert_eq!(item["version"], 3);
    for key in [
        "id",
        "name",
        "description",
        "version",
        "organizationId",
        "createdAt",
        "updatedAt",
    ] {
        assert!(!item[key].is_null(), "{key} missing from {item}");
    }
    assert!(item.get("template").is_none());

    // Delete: every version gone from every endpoint and from resolution.
    let r = call("DELETE", &format!("/v1/templates/{id}"), Some(token), None);
    assert_eq!((r.status, r.body.as_str()), (204, ""));
    for (method, path) in [
        ("GET", format!("/v1/templates/{id}")),
        ("GET", format!("/v1/templates/{id}?version=1")),
        ("DELETE", format!("/v1/templates/{id}")),
    ] {
        assert_eq!(
            call(method, &path, Some(token), None).status,
            404,
            "{method} {path}"
        );
    }
    let r = call(
        "PUT",
        &format!("/v1/templates/{id}"),
        Some(token),
        Some(&filter_template("x")),
    );
    assert_eq!(r.status, 404);
    let r = call("GET", "/v1/templates", Some(token), None);
    assert!(!r.body.contains(&id));
    let r = call(
        "POST",
        "/v1/jobs",
        Some(token),
        Some(&job_using("j", &id, "warn")),
    );
    assert_eq!(r.status, 400);
    assert!(r.error().starts_with("Template not found"), "{}", r.body);
}

#[test]
fn template_fields_are_validated() {
    let token = alice();
    let base = filter_template("Valid");
    let cases: Vec<(Value, &str)> = vec![
        (json!({"template": "1"}), "`name` is required"),
        (
            json!({"name": "", "template": "1"}),
            "`name` must not be empty",
        ),
        (
            json!({"name": 3, "template": "1"}),
            "`name` must be a string",
        ),
        (json!({"name": "n"}), "`template` is required"),
        (
            json!({"name": "n", "template": ["x"]}),
            "`template` must be a string",
        ),
        (
            json!({"name": "n", "template": "1", "inputSchema": {"type": "object", "properties": {"a": {"type": "nope"}}}}),
            "`inputSchema` is not a valid JSON Schema",
        ),
        (
            json!({"name": "n", "template": "1", "inputSchema": {"type": "string"}}),
            "`inputSchema` must describe an object",
        ),
        (
            json!({"name": "n", "template": "1", "inputSchema": "x"}),
            "`inputSchema` must be an object",
        ),
        (
            json!({"name": "n", "template": "1", "inputs": {"in": "a b:c"}}),
            "`inputs.in` must be of the form `vertex[:port]`",
        ),
        (
            json!({"name": "n", "template": "1", "outputs": {"out": 1}}),
            "`outputs.out` must be a string",
        ),
        (
            json!({"name": "n", "template": "1", "draftOutputs": [{"name": "d"}]}),
            "`draftOutputs[0].vertex` is required",
        ),
        (
            json!({"name": "n", "template": "1", "draftOutputs": {}}),
            "`draftOutputs` must be an array",
        ),
        (json!([1]), "must be a JSON object"),
    ];
    for (body, expected) in cases {
        let r = call("POST", "/v1/templates", Some(token), Some(&body));
        assert_eq!(r.status, 400, "{body}: {}", r.body);
        assert!(r.error().contains(expected), "{body}: {}", r.body);
    }
    let id = create_template(token, &base)["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let r = call(
        "PUT",
        &format!("/v1/templates/{id}"),
        Some(token),
        Some(&json!({"name": "n", "template": "1", "version": -1})),
    );
    assert!(
        r.status == 400 && r.error().contains("`version`"),
        "{}",
        r.body
    );

    // Media type, JSON syntax, size.
    let r = raw(
        "POST",
        "/v1/templates",
        &[
            ("Authorization", &format!("Bearer {token}")),
            ("Content-Type", "text/plain"),
        ],
        b"{}",
    );
    assert_eq!(r.status, 415);
    assert!(r.error().contains("application/json"));
    let r = raw(
        "POST",
        "/v1/templates",
        &[
            ("Authorization", &format!("Bearer {token}")),
            ("Content-Type", "application/json"),
        ],
        b"{\"name\":",
    );
    assert_eq!(r.status, 400);
    assert!(r.error().contains("not valid JSON"));
    let big = vec![b' '; 10 * 1024 * 1024 + 10];
    let r = raw(
        "POST",
        "/v1/templates",
        &[
            ("Authorization", &format!("Bearer {token}")),
            ("Content-Type", "application/json"),
        ],
        &big,
    );
    assert_eq!(r.status, 413, "{}", r.body);
    r.error();
}

fn test_request(body: &Value) -> Response {
    call("POST", "/v1/templates/test", Some(alice()), Some(body))
}

#[test]
fn template_test_endpoint() {
    let template = json!({
        "name": "Draft-aware",
        "inputSchema": {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}, "required": ["n"]},
        "template": "({vertices: [{type: 'logs-filter', name: 'f' + n, query: {type: 'simple-query', query: user.getName()}}].concat(draft ? [{type: 'logs-sync-sink', name: 'debug'}] : []), edges: draft ? ['f' + n + ' -> debug'] : []})"
    });
    let r = test_request(
        &json!({"template": template, "input": {"values": {"n": 2}}, "checkValidJobGraph": true}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let graph = r.json();
    assert_eq!(graph["vertices"][0]["name"], "f2");
    assert_eq!(
        graph["vertices"][0]["query"]["query"], "alice",
        "user is the caller"
    );
    assert_eq!(graph["vertices"].as_array().unwrap().len(), 1);
    for draft in [
        json!({"isDraft": true, "values": {"n": 1}}),
        json!({"draft": true, "values": {"n": 1}}),
    ] {
        let r = test_request(
            &json!({"template": template, "input": draft, "checkValidGreprJobGraph": true}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["vertices"][1]["name"], "debug");
    }
    let failures = [
        (
            json!({"template": template, "input": {"values": {"n": 0}}}),
            "Input validation failed",
        ),
        (
            json!({"template": {"template": "throw new Error('no')"}}),
            "JavaScript execution failed",
        ),
        (
            json!({"template": {"template": "undefinedVariable + 1"}}),
            "JavaScript execution failed",
        ),
        (
            json!({"template": {"template": "null"}}),
            "Script execution returned null or undefined",
        ),
        (
            json!({"template": {"template": "({vertices: [{type: 'x', name: 'a'}], edges: ['a -> b']})"}, "checkValidJobGraph": true}),
            "Could not parse resolved template into a JobGraph",
        ),
        (
            json!({"template": {"template": "({vertices: 3})"}}),
            "Could not parse resolved template into a JobGraph",
        ),
    ];
    for (body, prefix) in failures {
        let r = test_request(&body);
        assert_eq!(r.status, 400, "{body}: {}", r.body);
        assert!(r.error().starts_with(prefix), "{body}: {}", r.body);
        assert!(r.json()["code"].is_string());
    }
    let r = test_request(&json!({"input": {}}));
    assert!(r.status == 400 && r.error().contains("`template` is required"));
    let r = test_request(&json!({"template": {"template": "1", "inputs": {"a": ""}}}));
    assert!(
        r.status == 400 && r.error().contains("`template.inputs.a`"),
        "{}",
        r.body
    );
    let r = test_request(&json!({"template": template, "input": {"isDraft": "yes"}}));
    assert!(
        r.status == 400 && r.error().contains("`input.isDraft`"),
        "{}",
        r.body
    );
}

#[test]
fn jobs_lifecycle() {
    let token = alice();
    let template = create_template(token, &filter_template("Levels"))["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let r = call(
        "POST",
        "/v1/jobs",
        Some(token),
        Some(&job_using("errors-to-vendor", &template, "error")),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let job = r.json();
    let id = job["id"].as_str().unwrap().to_owned();
    assert_eq!(job["version"], 1);
    assert_eq!(job["state"], "PENDING");
    assert_eq!(job["desiredState"], "RUNNING");
    assert_eq!(job["organizationId"], "acme");
    assert_eq!(job["tags"]["createdByUser"], "alice");
    assert_eq!(job["jobGraph"]["vertices"][1]["type"], "template-operation");

    let r = call(
        "GET",
        &format!("/v1/jobs/{id}?resolved=true"),
        Some(token),
        None,
    );
    let resolved = r.json();
    let names: Vec<_> = resolved["jobGraph"]["vertices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["src", "errors.f", "sink"]);
    assert_eq!(
        resolved["jobGraph"]["vertices"][1]["query"]["query"],
        "level:error by alice"
    );
    assert_eq!(
        resolved["jobGraph"]["edges"],
        json!(["src -> errors.f:input", "errors.f:output -> sink"])
    );

    // Update: fromVersion must be current.
    let mut update =
        json!({"fromVersion": 7, "jobGraph": job_using("x", &template, "warn")["jobGraph"]});
    let r = call("PUT", &format!("/v1/jobs/{id}"), Some(token), Some(&update));
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(r.json()["currentVersion"], 1);
    update["fromVersion"] = json!(1);
    let r = call(
        "PUT",
        &format!("/v1/jobs/{id}?rollbackEnabled=true"),
        Some(token),
        Some(&update),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["version"], 2);
    assert_eq!(r.json()["name"], "errors-to-vendor");
    let r = call(
        "GET",
        &format!("/v1/jobs/{id}?resolved=true"),
        Some(token),
        None,
    );
    assert_eq!(
        r.json()["jobGraph"]["vertices"][1]["query"]["query"],
        "level:warn by alice"
    );
    let r = call(
        "GET",
        &format!("/v1/jobs/{id}?version=1&resolved=true"),
        Some(token),
        None,
    );
    assert_eq!(
        r.json()["jobGraph"]["vertices"][1]["query"]["query"],
        "level:error by alice"
    );
    assert_eq!(
        call(
            "GET",
            &format!("/v1/jobs/{id}?version=3"),
            Some(token),
            None
        )
        .status,
        404
    );
    // A resolution error is a 400 with the contract message; nothing is written.
    let bad = json!({"jobGraph": job_using("x", "no-such-template", "warn")["jobGraph"]});
    let r = call("PUT", &format!("/v1/jobs/{id}"), Some(token), Some(&bad));
    assert_eq!(r.status, 400);
    assert!(
        r.error()
            .starts_with("Template not found: no-such-template"),
        "{}",
        r.body
    );

    // Another job, batch and synchronous, through /async.
    let mut batch = job_using("nightly", &template, "info");
    batch["processing"] = json!("BATCH");
    batch["execution"] = json!("SYNCHRONOUS");
    let r = call("POST", "/api/v1/jobs/async", Some(token), Some(&batch));
    assert_eq!(r.status, 201, "{}", r.body);
    let nightly = r.json()["id"].as_str().unwrap().to_owned();

    let list = |query: &str| -> Vec<(String, u64)> {
        let r = call("GET", &format!("/v1/jobs{query}"), Some(token), None);
        assert_eq!(r.status, 200, "{query}: {}", r.body);
        r.json()["items"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|j| j["id"] == id.as_str() || j["id"] == nightly.as_str())
            .map(|j| {
                (
                    j["name"].as_str().unwrap().to_owned(),
                    j["version"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    let both = vec![
        ("errors-to-vendor".to_owned(), 2),
        ("nightly".to_owned(), 1),
    ];
    assert_eq!(list(""), both);
    assert_eq!(
        list("?latest=true&state=PENDING&state=RUNNING&since=PT6H"),
        both
    );
    assert_eq!(list("?processing=BATCH"), [("nightly".to_owned(), 1)]);
    assert_eq!(
        list("?execution=ASYNCHRONOUS"),
        [("errors-to-vendor".to_owned(), 2)]
    );
    assert_eq!(list("?state=RUNNING"), []);
    assert_eq!(list("?name=nightly"), [("nightly".to_owned(), 1)]);
    assert_eq!(list(&format!("?id={nightly}")), [("nightly".to_owned(), 1)]);
    assert_eq!(list("?since=2999-01-01T00:00:00Z"), []);
    assert_eq!(list("?latest=false").len(), 3);
    assert_eq!(list("?allVersions=true").len(), 3);
    let r = call(
        "GET",
        "/v1/jobs?resolved=true&name=nightly",
        Some(token),
        None,
    );
    assert_eq!(
        r.json()["items"][0]["jobGraph"]["vertices"][1]["name"],
        "errors.f"
    );
    assert_eq!(
        call("GET", "/v1/jobs?since=yesterday", Some(token), None).status,
        400
    );

    // Required fields.
    for (field, expected) in [
        ("name", "`name` is required"),
        ("execution", "`execution` is required"),
        ("processing", "`processing` is required"),
        ("jobGraph", "`jobGraph` is required"),
    ] {
        let mut body = job_using("x", &template, "warn");
        body.as_object_mut().unwrap().remove(field);
        let r = call("POST", "/v1/jobs", Some(token), Some(&body));
        assert!(
            r.status == 400 && r.error().contains(expected),
            "{field}: {}",
            r.body
        );
    }
    let mut body = job_using("x", &template, "warn");
    body["processing"] = json!("SOMETIMES");
    let r = call("POST", "/v1/jobs", Some(token), Some(&body));
    assert!(
        r.status == 400
            && r.error()
                .contains("`processing` must be one of BATCH, STREAMING")
    );
    let r = call(
        "POST",
        "/v1/jobs",
        Some(token),
        Some(&job_using("x", &template, "")),
    );
    assert_eq!(r.status, 201, "an empty level is a valid string");

    // Synchronous execution is refused, saying why.
    let r = call("POST", "/v1/jobs/sync", Some(token), Some(&batch));
    assert_eq!(r.status, 501);
    assert!(r.error().contains("does not run them"));

    // A job whose template was deleted cannot be updated.
    assert_eq!(
        call(
            "DELETE",
            &format!("/v1/templates/{template}"),
            Some(token),
            None
        )
        .status,
        204
    );
    let r = call(
        "PUT",
        &format!("/v1/jobs/{nightly}"),
        Some(token),
        Some(&json!({"desiredState": "STOPPED"})),
    );
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(
        r.error().contains(&template) && r.error().contains("deleted"),
        "{}",
        r.body
    );
    // It can still be read and deleted.
    assert_eq!(
        call("GET", &format!("/v1/jobs/{nightly}"), Some(token), None).status,
        200
    );
    for job in [&id, &nightly] {
        let r = call("DELETE", &format!("/v1/jobs/{job}"), Some(token), None);
        assert_eq!(r.status, 204);
        assert_eq!(
            call("GET", &format!("/v1/jobs/{job}"), Some(token), None).status,
            404
        );
        assert_eq!(
            call("DELETE", &format!("/v1/jobs/{job}"), Some(token), None).status,
            404
        );
    }
    assert_eq!(list("?latest=false"), []);
}

#[test]
fn organizations_are_isolated() {
    let template = create_template(alice(), &filter_template("Acme only"))["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let r = call(
        "POST",
        "/v1/jobs",
        Some(alice()),
        Some(&job_using("acme job", &template, "error")),
    );
    let job = r.json()["id"].as_str().unwrap().to_owned();
    let b = Some(bob());
    for (method, path) in [
        ("GET", format!("/v1/templates/{template}")),
        ("GET", format!("/v1/templates/{template}?latest=true")),
        ("DELETE", format!("/v1/templates/{template}")),
        ("GET", format!("/v1/jobs/{job}")),
        ("DELETE", format!("/v1/jobs/{job}")),
    ] {
        let r = call(method, &path, b, None);
        assert_eq!(r.status, 404, "{method} {path}: {}", r.body);
    }
    let r = call(
        "PUT",
        &format!("/v1/templates/{template}"),
        b,
        Some(&filter_template("taken")),
    );
    assert_eq!(r.status, 404);
    let r = call("PUT", &format!("/v1/jobs/{job}"), b, Some(&json!({})));
    assert_eq!(r.status, 404);
    assert!(
        !call("GET", "/v1/templates", b, None)
            .body
            .contains(&template)
    );
    assert!(
        !call("GET", "/v1/jobs?latest=false", b, None)
            .body
            .contains(&job)
    );
    // Resolution with another organization's template: not found.
    let r = call(
        "POST",
        "/v1/jobs",
        b,
        Some(&job_using("steal", &template, "error")),
    );
    assert_eq!(r.status, 400);
    assert!(r.error().starts_with("Template not found"));
    // Alice still has both.
    assert_eq!(
        call(
            "GET",
            &format!("/v1/templates/{template}"),
            Some(alice()),
            None
        )
        .status,
        200
    );
    assert_eq!(
        call("GET", &format!("/v1/jobs/{job}"), Some(alice()), None).status,
        200
    );
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

#[test]
fn concurrent_updates_never_lose_or_duplicate_a_version() {
    let token = alice();
    let id = create_template(token, &filter_template("Contended"))["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let seen: Vec<u64> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..8)
            .map(|client| {
                let id = id.clone();
                scope.spawn(move || {
                    (0..50)
                        .map(|i| {
                            let body = filter_template(&format!("client {client} write {i}"));
                            let r = call(
                                "PUT",
                                &format!("/v1/templates/{id}"),
                                Some(token),
                                Some(&body),
                            );
                            assert_eq!(r.status, 200, "{}", r.body);
                            r.json()["version"].as_u64().unwrap()
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    let acknowledged: BTreeSet<u64> = seen.iter().copied().collect();
    assert_eq!(acknowledged.len(), 400, "no version number given twice");
    assert_eq!(acknowledged, (2..=401).collect());
    let r = call("GET", &format!("/v1/templates/{id}"), Some(token), None);
    let stored: Vec<u64> = r.json()["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["version"].as_u64().unwrap())
        .collect();
    assert_eq!(stored, (1..=401).collect::<Vec<_>>());
}

#[test]
fn a_hostile_script_does_not_slow_reads() {
    let token = bob();
    let id = create_template(token, &filter_template("Read me"))["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let path = format!("/v1/templates/{id}?latest=true");
    assert_eq!(call("GET", &path, Some(token), None).status, 200);
    std::thread::scope(|scope| {
        let hostile = scope.spawn(|| {
            let started = Instant::now();
            let r = call(
                "POST",
                "/v1/templates/test",
                Some(token),
                Some(&json!({"template": {"template": "while (true) {}"}})),
            );
            (r, started.elapsed())
        });
        // Reads while the script spins (its worker is killed after ~1.25 s).
        std::thread::sleep(Duration::from_millis(100));
        let mut slowest = Duration::ZERO;
        let mut reads = 0;
        while !hostile.is_finished() && reads < 400 {
            let started = Instant::now();
            let r = call("GET", &path, Some(token), None);
            assert_eq!(r.status, 200);
            slowest = slowest.max(started.elapsed());
            reads += 1;
        }
        let (r, took) = hostile.join().unwrap();
        assert_eq!(r.status, 400, "{}", r.body);
        assert!(
            r.error().starts_with("JavaScript execution failed"),
            "{}",
            r.body
        );
        assert!(
            took >= Duration::from_millis(500),
            "the script ran {took:?}"
        );
        assert!(reads >= 10, "only {reads} reads while the script ran");
        assert!(
            slowest < Duration::from_millis(250),
            "a read took {slowest:?} while a script spun"
        );
    });
}

#[test]
fn one_log_line_per_request_without_secrets() {
    let token = alice();
    let r = call("GET", "/v1/jobs?name=log-probe", Some(token), None);
    assert_eq!(r.status, 200);
    let deadline = Instant::now() + Duration::from_secs(10);
    let line = loop {
        let log = server().log();
        if let Some(line) = log
            .lines()
            .find(|l| l.contains("method=GET path=/v1/jobs ") && l.contains("org=acme"))
        {
            break line.to_owned();
        }
        assert!(Instant::now() < deadline, "no log line in {log}");
        std::thread::sleep(Duration::from_millis(20));
    };
    for field in ["method=GET", "status=200", "latency_ms=", "org=acme"] {
        assert!(line.contains(field), "{field} missing in {line}");
    }
    assert!(
        !line.contains("log-probe"),
        "query strings are not logged: {line}"
    );
    let log = server().log();
    for secret in ["alice-secret-1", "bob-secret-2", token, bob()] {
        assert!(!log.contains(secret), "a secret or token is in the log");
    }
    assert!(log.contains("path=/oauth/token"));
}
