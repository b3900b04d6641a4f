//! `/v1/jobs` and the isolation of organizations.

use super::*;

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
    // An asynchronous job's new version is accepted: it takes over from the running one.
    assert_eq!(r.status, 202, "{}", r.body);
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
    // Query parameters are read strictly: a typo is a 400 naming the parameter, never a
    // filter that silently matches nothing.
    for query in [
        "since=yesterday",
        "since=",
        "since=PT",
        "processing=batch",
        "execution=",
        "latest=",
        "latest=yes",
        "resolved=1",
    ] {
        let r = call("GET", &format!("/v1/jobs?{query}"), Some(token), None);
        let name = query.split('=').next().unwrap();
        assert!(
            r.status == 400 && r.error().contains(&format!("`{name}`")),
            "{query}: {} {}",
            r.status,
            r.body
        );
    }
    assert_eq!(list("?since=2026-01-01T00:00:00%2B01:00"), both);
    assert_eq!(list("?since=P99999999999Y"), both);
    assert_eq!(list("?processing=BATCH,STREAMING"), both);

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

    // A synchronous job reading a table is refused, saying why (no data lake yet); a
    // streaming one too.
    let r = call("POST", "/v1/jobs/sync", Some(token), Some(&batch));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.error().contains("logs-values-source"), "{}", r.body);
    let mut streaming = batch.clone();
    streaming["processing"] = json!("STREAMING");
    let r = call("POST", "/v1/jobs/sync", Some(token), Some(&streaming));
    assert_eq!(r.status, 400);
    assert!(
        r.error().contains("runs SYNCHRONOUS BATCH jobs"),
        "{}",
        r.body
    );

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
