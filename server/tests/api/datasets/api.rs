//! Dataset CRUD, validation, versions, tombstones, isolation and pages.

use serde_json::{Value, json};

use super::{call, create, server};

#[test]
fn create_get_update_delete_with_defaults_and_versions() {
    let created = create("crud", json!({"name": "web-logs"}));
    let id = created["id"].as_str().unwrap().to_owned();
    assert_eq!(created["name"], "web-logs");
    assert_eq!(created["description"], "");
    assert_eq!(created["partitioning"], "HOUR");
    assert_eq!(created["retentionDays"], Value::Null);
    assert_eq!(
        created["promotedTags"],
        json!(["service", "host", "level", "env"])
    );
    assert_eq!(created["version"], 1);
    assert_eq!(created["organizationId"], "org-crud");
    assert_eq!(created["createdAt"], created["updatedAt"]);

    let got = call("GET", &format!("/v1/datasets/{id}"), "crud", None);
    assert_eq!(got.status, 200, "{}", got.body);
    assert_eq!(got.json(), created);
    // Under /api too.
    let api = call("GET", &format!("/api/v1/datasets/{id}"), "crud", None);
    assert_eq!(api.json(), created);

    let update = json!({"version": 1, "name": "web-logs", "description": "front end",
        "partitioning": "DAY", "retentionDays": 30, "promotedTags": ["service", "k8s.pod"]});
    let r = call("PUT", &format!("/v1/datasets/{id}"), "crud", Some(&update));
    assert_eq!(r.status, 200, "{}", r.body);
    let updated = r.json();
    assert_eq!(updated["version"], 2);
    assert_eq!(updated["partitioning"], "DAY");
    assert_eq!(updated["retentionDays"], 30);
    assert_eq!(updated["promotedTags"], json!(["service", "k8s.pod"]));
    assert_eq!(updated["createdAt"], created["createdAt"]);

    // A stale version: 409 with the current one; nothing changed.
    let stale = json!({"version": 1, "name": "web-logs", "partitioning": "YEAR"});
    let r = call("PUT", &format!("/v1/datasets/{id}"), "crud", Some(&stale));
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(r.json()["currentVersion"], 2);
    assert!(r.json()["message"].as_str().unwrap().contains("version 2"));
    // Without a version the update replaces whatever is current; absent fields take defaults.
    let r = call(
        "PUT",
        &format!("/v1/datasets/{id}"),
        "crud",
        Some(&json!({"name": "web"})),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["version"], 3);
    assert_eq!(r.json()["partitioning"], "HOUR");
    assert_eq!(r.json()["retentionDays"], Value::Null);
    // The output of a get can be sent back as is (its read-only fields are ignored).
    let mut again = r.json();
    again["description"] = json!("round trip");
    let r = call("PUT", &format!("/v1/datasets/{id}"), "crud", Some(&again));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["version"], 4);

    // Files: none committed yet.
    let files = call("GET", &format!("/v1/datasets/{id}/files"), "crud", None);
    assert_eq!(files.status, 200, "{}", files.body);
    assert_eq!(files.json(), json!({"items": []}));

    let r = call("DELETE", &format!("/v1/datasets/{id}"), "crud", None);
    assert_eq!(r.status, 204, "{}", r.body);
    for (method, path) in [
        ("GET", format!("/v1/datasets/{id}")),
        ("GET", format!("/v1/datasets/{id}/files")),
        ("DELETE", format!("/v1/datasets/{id}")),
    ] {
        let r = call(method, &path, "crud", None);
        assert_eq!(r.status, 404, "{method} {path}: {}", r.body);
        assert!(r.error().contains("no dataset"), "{}", r.body);
    }
    let r = call(
        "PUT",
        &format!("/v1/datasets/{id}"),
        "crud",
        Some(&json!({"name": "web"})),
    );
    assert_eq!(r.status, 404, "{}", r.body);
}

#[test]
fn names_are_unique_among_live_datasets_and_free_again_after_delete() {
    let first = create("crud", json!({"name": "audit"}));
    let r = call(
        "POST",
        "/v1/datasets",
        "crud",
        Some(&json!({"name": "audit"})),
    );
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.json()["message"].as_str().unwrap().contains("audit"));
    // Renaming another dataset onto it is refused too.
    let other = create("crud", json!({"name": "audit-2"}));
    let r = call(
        "PUT",
        &format!("/v1/datasets/{}", other["id"].as_str().unwrap()),
        "crud",
        Some(&json!({"name": "audit"})),
    );
    assert_eq!(r.status, 409, "{}", r.body);
    // Another organization may use the name.
    create("isolated", json!({"name": "audit"}));
    // Deleted: the name is free; the new dataset has a new id.
    let id = first["id"].as_str().unwrap();
    assert_eq!(
        call("DELETE", &format!("/v1/datasets/{id}"), "crud", None).status,
        204
    );
    let reborn = create("crud", json!({"name": "audit"}));
    assert_ne!(reborn["id"], first["id"]);
    assert_eq!(reborn["version"], 1);
}

#[test]
fn another_organizations_dataset_is_not_found() {
    let mine = create("isolated", json!({"name": "private"}));
    let id = mine["id"].as_str().unwrap();
    for (method, path, body) in [
        ("GET", format!("/v1/datasets/{id}"), None),
        ("GET", format!("/v1/datasets/{id}/files"), None),
        (
            "PUT",
            format!("/v1/datasets/{id}"),
            Some(json!({"name": "stolen"})),
        ),
        ("DELETE", format!("/v1/datasets/{id}"), None),
    ] {
        let r = call(method, &path, "crud", body.as_ref());
        assert_eq!(r.status, 404, "{method} {path}: {}", r.body);
    }
    let listed = call("GET", "/v1/datasets?limit=1000", "crud", None).json();
    assert!(
        listed
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["organizationId"] == "org-crud")
    );
    // Still there for its owner, unchanged.
    let r = call("GET", &format!("/v1/datasets/{id}"), "isolated", None);
    assert_eq!(r.json(), mine);
    // No token: 401.
    let r = server().call("GET", "/v1/datasets", None, None);
    assert_eq!(r.status, 401, "{}", r.body);
}

#[test]
fn invalid_bodies_are_400_naming_the_field() {
    let cases = [
        (json!({}), "/name"),
        (json!({"name": ""}), "/name"),
        (json!({"name": 3}), "/name"),
        (json!({"name": "x".repeat(65)}), "/name"),
        (json!({"name": "a", "description": 1}), "/description"),
        (
            json!({"name": "a", "partitioning": "WEEK"}),
            "/partitioning",
        ),
        (json!({"name": "a", "retentionDays": 0}), "/retentionDays"),
        (json!({"name": "a", "retentionDays": -3}), "/retentionDays"),
        (
            json!({"name": "a", "retentionDays": "30"}),
            "/retentionDays",
        ),
        (
            json!({"name": "a", "promotedTags": "service"}),
            "/promotedTags",
        ),
        (
            json!({"name": "a", "promotedTags": ["a", "b", "c", "d", "e", "f", "g", "h", "i"]}),
            "/promotedTags",
        ),
        (
            json!({"name": "a", "promotedTags": ["ok", "not ok"]}),
            "/promotedTags/1",
        ),
        (
            json!({"name": "a", "promotedTags": ["ok", "x".repeat(65)]}),
            "/promotedTags/1",
        ),
        (
            json!({"name": "a", "promotedTags": ["level", "level"]}),
            "/promotedTags/1",
        ),
        (json!({"name": "a", "colour": "red"}), "/colour"),
        (json!(["name"]), "body"),
    ];
    for (body, pointer) in cases {
        let r = call("POST", "/v1/datasets", "bad", Some(&body));
        assert_eq!(r.status, 400, "{body}: {}", r.body);
        let message = r.json()["message"].as_str().unwrap().to_owned();
        assert!(message.contains(pointer), "{body}: {message}");
    }
    let ok = create("bad", json!({"name": "ok", "promotedTags": []}));
    let id = ok["id"].as_str().unwrap();
    let r = call(
        "PUT",
        &format!("/v1/datasets/{id}"),
        "bad",
        Some(&json!({"name": "ok", "version": 0})),
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.json()["message"].as_str().unwrap().contains("/version"));
    // Not JSON, and not application/json.
    let r = server().request(
        "POST",
        "/v1/datasets",
        &[
            (
                "Authorization".into(),
                format!("Bearer {}", super::token("bad")),
            ),
            ("Content-Type".into(), "application/json".into()),
        ],
        Some(b"{not json"),
    );
    assert_eq!(r.status, 400, "{}", r.body);
    let r = server().request(
        "POST",
        "/v1/datasets",
        &[(
            "Authorization".into(),
            format!("Bearer {}", super::token("bad")),
        )],
        Some(b"name=a"),
    );
    assert_eq!(r.status, 415, "{}", r.body);
}

#[test]
fn the_list_pages_with_link_headers_oldest_first() {
    let mut made = Vec::new();
    for i in 0..5 {
        made.push(create("pager", json!({"name": format!("ds-{i}")})));
    }
    let mut seen = Vec::new();
    let mut path = "/v1/datasets?limit=2".to_owned();
    let mut pages = 0;
    loop {
        let r = call("GET", &path, "pager", None);
        assert_eq!(r.status, 200, "{}", r.body);
        let page = r.json();
        // A bare array (the public client's `.find`); the next page is in the `Link` header.
        let items = page.as_array().unwrap();
        assert!(items.len() <= 2);
        seen.extend(items.iter().map(|d| d["id"].clone()));
        pages += 1;
        match r.header("link") {
            Some(link) => {
                assert!(link.ends_with("; rel=\"next\""), "{link}");
                path = link[1..link.find('>').unwrap()].to_owned();
            }
            None => break,
        }
    }
    // Oldest first; datasets made in the same millisecond by id (the documented order).
    let made: Vec<Value> = super::in_list_order(&made)
        .iter()
        .map(|d| d["id"].clone())
        .collect();
    assert_eq!(seen, made);
    assert_eq!(pages, 3);
    // A cursor of another listing, or altered, is a 400.
    let r = call("GET", "/v1/datasets?cursor=AAAA", "pager", None);
    assert_eq!(r.status, 400, "{}", r.body);
    let r = call("GET", "/v1/datasets?limit=0", "pager", None);
    assert_eq!(r.status, 400, "{}", r.body);
    let r = call("GET", "/v1/datasets?limit=5000", "pager", None);
    assert_eq!(r.status, 400, "{}", r.body);
}

#[test]
fn the_openapi_document_describes_datasets_and_integrations() {
    let r = server().call("GET", "/openapi.json", None, None);
    let doc = r.json();
    for (path, method, statuses) in [
        (
            "/v1/datasets",
            "post",
            &["201", "400", "401", "409", "413", "415", "503"][..],
        ),
        ("/v1/datasets", "get", &["200", "400", "401", "503"][..]),
        (
            "/v1/datasets/{id}",
            "get",
            &["200", "401", "404", "503"][..],
        ),
        (
            "/v1/datasets/{id}",
            "put",
            &["200", "400", "401", "404", "409", "503"][..],
        ),
        (
            "/v1/datasets/{id}",
            "delete",
            &["204", "401", "404", "503"][..],
        ),
        (
            "/v1/datasets/{id}/files",
            "get",
            &["200", "400", "401", "404", "503"][..],
        ),
        ("/v1/integrations", "get", &["200", "401", "503"][..]),
        (
            "/v1/integrations/{id}",
            "get",
            &["200", "401", "404", "503"][..],
        ),
        (
            "/v1/integrations/{type}/{id}",
            "get",
            &["200", "401", "404", "503"][..],
        ),
    ] {
        let responses = &doc["paths"][path][method]["responses"];
        for status in statuses {
            assert!(
                responses[status].is_object(),
                "{method} {path} {status}: {responses}"
            );
        }
    }
    let dataset = &doc["components"]["schemas"]["DatasetOut"]["properties"];
    for field in [
        "id",
        "name",
        "partitioning",
        "retentionDays",
        "promotedTags",
        "version",
    ] {
        assert!(dataset[field].is_object(), "{field}: {dataset}");
    }
    // The files are paged like the other lists: `limit`, `cursor`, and the `Link` header.
    let files = &doc["paths"]["/v1/datasets/{id}/files"]["get"];
    let params: Vec<&str> = files["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(params, ["id", "limit", "cursor"]);
    assert!(
        files["responses"]["200"]["headers"]["Link"].is_object(),
        "{files}"
    );
}
