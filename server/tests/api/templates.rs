//! `/v1/templates`: lifecycle, validation, the test endpoint.

use super::*;

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
    let r = raw(
        "POST",
        "/v1/templates",
        &[
            ("Authorization", &format!("Bearer {token}")),
            ("Content-Type", "application/json"),
        ],
        br#"{"name": "a", "template": "1", "name": "b"}"#,
    );
    assert_eq!(r.status, 400);
    assert!(
        r.error().contains("duplicate key \"name\" at line 1"),
        "{}",
        r.body
    );
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

/// The latest version's answer is kept while the service alone writes its database (SQLite,
/// as here): an update, a delete, and another organization's read each see the truth.
#[test]
fn the_latest_version_read_follows_updates_and_deletes() {
    let token = alice();
    let id = create_template(token, &filter_template("Kept"))["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let latest = format!("/v1/templates/{id}?latest=true");
    let read = |token: &str| {
        let r = call("GET", &latest, Some(token), None);
        (r.status, r.json())
    };
    for _ in 0..3 {
        let (status, body) = read(token);
        assert_eq!(status, 200);
        assert_eq!(body["items"][0]["version"], 1);
        assert_eq!(body["items"][0]["name"], "Kept");
    }
    // Another organization: not its template, kept answer or not.
    assert_eq!(read(bob()).0, 404);
    let r = call(
        "PUT",
        &format!("/v1/templates/{id}"),
        Some(token),
        Some(&filter_template("Kept v2")),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let (_, body) = read(token);
    assert_eq!(body["items"][0]["version"], 2);
    assert_eq!(body["items"][0]["name"], "Kept v2");
    assert_eq!(body["items"][0]["isLatest"], true);
    // A refused update (a stale version) changes nothing.
    let mut stale = filter_template("Kept v3");
    stale["version"] = json!(2);
    let r = call(
        "PUT",
        &format!("/v1/templates/{id}"),
        Some(token),
        Some(&stale),
    );
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(read(token).1["items"][0]["name"], "Kept v2");
    let r = call("DELETE", &format!("/v1/templates/{id}"), Some(token), None);
    assert_eq!(r.status, 204, "{}", r.body);
    assert_eq!(read(token).0, 404);
}
