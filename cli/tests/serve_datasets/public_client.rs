//! The public service's own client (`grepr/cli`) against `jobgraph serve`: each request sent
//! as that client's source builds it (under the `/api` prefix of its default base URL, its
//! `Authorization` header, no query parameters it does not send), and the fields it reads
//! asserted. Datasets: `GET /v1/datasets` is a bare array that `lookupDataset` calls `.find`
//! on (after a `GET /v1/datasets/{name}` that may fail), paged with `Link` headers for the
//! clients that follow them (ours). Integrations: `integration:list` walks seven types with
//! `GET /v1/integrations/{type}` and throws on any error; `integration:get` tries
//! `GET /v1/integrations/{type}/{id}` type after type until one answers.

use std::sync::OnceLock;

use serde_json::{Value, json};

use super::cli::{home_on, run};
use super::common::{Response, Server, request};
use super::{server, token};

/// The types in the order the public client walks them (its `getAllIntegrations`).
const TYPES: [&str; 7] = [
    "datadog",
    "data-warehouse",
    "s3-data-warehouse",
    "newrelic",
    "otlp",
    "splunk",
    "sumo",
];

/// A GET as the public client's API client sends it: the bearer token, nothing else.
fn client_get(server: &Server, path: &str, bearer: &str) -> Response {
    request(
        server.addr,
        "GET",
        path,
        &[("Authorization".into(), format!("Bearer {bearer}"))],
        None,
    )
}

/// The target of a `Link: <…>; rel="next"` header.
fn next_link(r: &Response) -> Option<String> {
    let link = r.header("link")?;
    assert!(link.ends_with("rel=\"next\""), "{link}");
    let start = link.find('<')? + 1;
    let end = link.find('>')?;
    Some(link[start..end].to_owned())
}

pub(super) use jobgraph_testkit::in_list_order;

fn names(list: &Value) -> Vec<&str> {
    list.as_array()
        .unwrap_or_else(|| panic!("a JSON array: {list}"))
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect()
}

#[test]
fn the_dataset_list_is_an_array_the_client_finds_a_name_in() {
    let bearer = token("wire");
    let mut made = Vec::new();
    for name in ["wire-web", "wire-audit", "wire-billing"] {
        made.push(super::create("wire", json!({"name": name})));
    }
    // `query --dataset-name wire-audit`: the name looks like an id, so the client first tries
    // it as one (a 404, caught), then lists the datasets and finds it by name.
    let tried = client_get(server(), "/api/v1/datasets/wire-audit", &bearer);
    assert_eq!(tried.status, 404, "{}", tried.body);
    let r = client_get(server(), "/api/v1/datasets", &bearer);
    assert_eq!(r.status, 200, "{}", r.body);
    let list = r.json();
    assert!(list.is_array(), "a bare array: {list}");
    let expected = in_list_order(&made);
    assert_eq!(names(&list), names(&Value::Array(expected)));
    let mut sorted_names = names(&list);
    sorted_names.sort_unstable();
    assert_eq!(sorted_names, ["wire-audit", "wire-billing", "wire-web"]);
    let found = list
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == "wire-audit")
        .expect("found by name");
    assert_eq!(found["id"], made[1]["id"]);
    assert_eq!(found, &made[1], "the listed dataset is the created one");
    // One page holds them all: no `Link`.
    assert!(r.header("link").is_none(), "{:?}", r.header("link"));
}

#[test]
fn the_dataset_list_pages_with_link_headers_that_keep_the_array() {
    let mut made = Vec::new();
    for i in 0..7 {
        made.push(super::create(
            "linker",
            json!({"name": format!("linked-{i}")}),
        ));
    }
    let made: Vec<Value> = in_list_order(&made)
        .iter()
        .map(|d| d["id"].clone())
        .collect();
    let bearer = token("linker");
    let mut seen = Vec::new();
    let mut sizes = Vec::new();
    let mut path = "/api/v1/datasets?limit=3".to_owned();
    loop {
        let r = client_get(server(), &path, &bearer);
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        let page = r.json();
        let items = page.as_array().unwrap_or_else(|| panic!("{page}"));
        sizes.push(items.len());
        seen.extend(items.iter().map(|d| d["id"].clone()));
        match next_link(&r) {
            // The link is the path as requested (here under `/api`), `limit` kept.
            Some(next) => {
                assert!(next.starts_with("/api/v1/datasets?"), "{next}");
                assert!(
                    next.contains("limit=3") && next.contains("cursor="),
                    "{next}"
                );
                path = next;
            }
            None => break,
        }
    }
    assert_eq!(sizes, [3, 3, 1]);
    assert_eq!(seen, made);
    // An altered cursor is still a 400 naming it.
    let r = client_get(server(), "/api/v1/datasets?cursor=AAAA", &bearer);
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.error().contains("cursor"), "{}", r.body);
}

/// A server whose pages hold at most 3 items, for a client to follow `Link` headers.
fn small_pages() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        Server::start_with_config(
            &json!({"fieldLimits": {"defaultPageSize": 3, "maxPageSize": 3}}),
            &["--client", "cli:cli-secret-6:org-cli"],
        )
    })
}

#[test]
fn dataset_list_follows_the_link_headers_to_every_dataset() {
    let server = small_pages();
    let bearer = server.token("cli", "cli-secret-6");
    let mut made = Vec::new();
    for i in 0..8 {
        let r = server.call(
            "POST",
            "/v1/datasets",
            Some(&bearer),
            Some(&json!({"name": format!("paged-{i}")})),
        );
        assert_eq!(r.status, 201, "{}", r.body);
        made.push(format!("paged-{i}"));
    }
    // Without `limit`, a page is as large as the service allows: here 3, and a `Link`.
    let first = client_get(server, "/v1/datasets", &bearer);
    assert_eq!(first.json().as_array().map(Vec::len), Some(3));
    assert!(next_link(&first).is_some());
    // `jobgraph dataset:list` (its base URL under `/api`) follows them to the last page.
    let home = home_on(server);
    let listed = run(home.path(), &["dataset:list", "-f", "compact"])
        .ok()
        .json();
    // (Printed sorted by id, the list's default order.)
    let mut all = names(&listed);
    all.sort_unstable();
    assert_eq!(all, made, "every page");
    // `--limit 2` asks for a page of 2 (`limit=2`): the two oldest, then sorted.
    let two = run(
        home.path(),
        &["dataset:list", "--limit", "2", "-f", "compact"],
    )
    .ok()
    .json();
    let mut two = names(&two);
    two.sort_unstable();
    assert_eq!(two, &made[..2]);
}

/// Asserts the fields the public client reads of an integration in its shape.
fn assert_public_shape(item: &Value, kind: &str, organization: &str) {
    assert_eq!(item["type"], kind, "{item}");
    for field in ["id", "name", "createdAt", "updatedAt"] {
        assert!(
            item[field].as_str().is_some_and(|s| !s.is_empty()),
            "{field}: {item}"
        );
    }
    assert_eq!(item["organizationId"], organization, "{item}");
    assert!(item["payload"].is_object(), "{item}");
    assert!(item["jobIds"].is_array(), "{item}");
    assert_eq!(item["version"], 0, "{item}");
}

#[test]
fn integrations_are_listed_type_by_type_as_the_client_walks_them() {
    let bearer = token("wire");
    // A job of the organization that sends to the Datadog integration.
    let job = json!({
        "name": "to-datadog",
        "execution": "ASYNCHRONOUS",
        "processing": "STREAMING",
        "jobGraph": {
            "vertices": [
                {"type": "logs-iceberg-table-source", "name": "src", "table": "logs", "processing": "STREAM"},
                {"type": "datadog-log-sink", "name": "sink", "integrationId": "dd-prod"}
            ],
            "edges": ["src -> sink"]
        }
    });
    let r = super::call("POST", "/v1/jobs", "wire", Some(&job));
    assert_eq!(r.status, 201, "{}", r.body);
    let job_id = r.json()["id"].clone();

    // `integration:list`: the seven types, each answering `{items}` (an error would stop it).
    let mut listed = Vec::new();
    for kind in TYPES {
        let r = client_get(server(), &format!("/api/v1/integrations/{kind}"), &bearer);
        assert_eq!(r.status, 200, "{kind}: {}", r.body);
        let items = r.json()["items"].as_array().expect("items").clone();
        for item in &items {
            assert_public_shape(item, kind, "org-wire");
            listed.push((kind, item["id"].as_str().unwrap().to_owned()));
        }
    }
    let ids: Vec<&str> = listed.iter().map(|(_, id)| id.as_str()).collect();
    // The configuration's order within each type; `splunk-prod` is open to every organization;
    // the `kafka` integration has none of the seven types and is listed only by
    // `GET /v1/integrations`.
    assert_eq!(
        ids,
        [
            "dd-prod",
            "warehouse",
            "wire-bucket",
            "nr-main",
            "collector",
            "splunk-prod",
            "splunk-wire",
            "sumo-main"
        ]
    );
    let datadog = client_get(server(), "/api/v1/integrations/datadog", &bearer).json();
    let dd = &datadog["items"][0];
    assert_eq!(dd["jobIds"], json!([job_id]));
    assert_eq!(dd["name"], "Datadog (production)");
    // The payload: the fields the client's schema requires, the configuration's over them.
    assert_eq!(
        dd["payload"],
        json!({"additionalTags": ["env:prod"], "filterQuery": "", "site": "datadoghq.eu"})
    );
    let all = super::call("GET", "/v1/integrations", "wire", None).json();
    let all_ids: Vec<&str> = all["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_str().unwrap())
        .collect();
    assert!(all_ids.contains(&"kafka-wire"), "{all}");
    assert!(!ids.contains(&"kafka-wire"));

    // A known type with none: 200 and an empty list, for an organization that sees none.
    let other = client_get(server(), "/api/v1/integrations/datadog", &token("crud"));
    assert_eq!(other.status, 200, "{}", other.body);
    assert_eq!(other.json(), json!({"items": []}));
}

#[test]
fn integration_get_finds_an_integration_by_trying_each_type() {
    let bearer = token("wire");
    // `integration:get nr-main`: each type in turn until one answers (errors are skipped).
    let mut answered = Vec::new();
    for kind in TYPES {
        let r = client_get(
            server(),
            &format!("/api/v1/integrations/{kind}/nr-main"),
            &bearer,
        );
        match r.status {
            200 => {
                let item = r.json();
                assert_public_shape(&item, kind, "org-wire");
                assert_eq!(item["id"], "nr-main");
                assert_eq!(item["name"], "New Relic");
                assert_eq!(item["payload"], json!({"site": "newrelic.com"}));
                answered.push(kind);
            }
            404 => {
                // Of another type: the message says which.
                assert!(r.error().contains("newrelic"), "{kind}: {}", r.body);
            }
            other => panic!("{kind}: {other} {}", r.body),
        }
    }
    assert_eq!(answered, ["newrelic"]);
    // `s3` in the configuration is the public `s3-data-warehouse`.
    let s3 = client_get(
        server(),
        "/api/v1/integrations/s3-data-warehouse/wire-bucket",
        &bearer,
    );
    assert_eq!(s3.status, 200, "{}", s3.body);
    assert_eq!(s3.json()["payload"], json!({"bucketName": "wire-archive"}));
    // Not visible to the organization, unknown, of no public type, or not a type: 404.
    for path in [
        "/api/v1/integrations/s3-data-warehouse/s3-archive",
        "/api/v1/integrations/datadog/nope",
        "/api/v1/integrations/datadog/kafka-wire",
        "/api/v1/integrations/kafka/kafka-wire",
    ] {
        let r = client_get(server(), path, &bearer);
        assert_eq!(r.status, 404, "{path}: {}", r.body);
    }
    // Our own shapes beside them: an id still reads as before.
    let ours = super::call("GET", "/v1/integrations/nr-main", "wire", None);
    assert_eq!(ours.status, 200, "{}", ours.body);
    assert_eq!(ours.json()["type"], "new-relic");
    assert!(ours.json()["jobs"].is_array());
}
