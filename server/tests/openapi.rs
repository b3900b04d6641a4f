//! The OpenAPI document is valid OpenAPI 3.1: checked against the official meta-schema
//! (`tests/openapi/schema-3.1.json`, see the README beside it), both as built in-process and
//! as served at `GET /openapi.json` by the real router over a loopback socket.

use std::sync::Arc;

use jobgraph_core::InProcess;
use jobgraph_server::{AppState, ServiceConfig, SqliteStore, Synchronous, router};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const META_SCHEMA: &str = include_str!("openapi/schema-3.1.json");

fn meta_schema() -> jsonschema::Validator {
    let schema: Value = serde_json::from_str(META_SCHEMA).expect("the meta-schema is JSON");
    assert_eq!(
        schema["$schema"], "https://json-schema.org/draft/2020-12/schema",
        "the OpenAPI 3.1 meta-schema is a 2020-12 schema"
    );
    jsonschema::draft202012::new(&schema).expect("the meta-schema compiles")
}

/// Every error of `document` against the meta-schema, as `(JSON pointer, message)`.
fn errors(document: &Value) -> Vec<(String, String)> {
    meta_schema()
        .iter_errors(document)
        .map(|e| (e.instance_path().to_string(), e.to_string()))
        .collect()
}

fn in_process() -> Value {
    jobgraph_server::openapi()
}

/// Every response object of every operation, with its JSON pointer.
fn responses(document: &Value) -> Vec<(String, &Value)> {
    let escape = |s: &str| s.replace('~', "~0").replace('/', "~1");
    let mut found = Vec::new();
    for (path, item) in document["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("path item") {
            let Some(responses) = operation.get("responses").and_then(Value::as_object) else {
                continue;
            };
            for (status, response) in responses {
                found.push((
                    format!("/paths/{}/{method}/responses/{status}", escape(path)),
                    response,
                ));
            }
        }
    }
    found
}

fn assert_valid(document: &Value) {
    let errors = errors(document);
    assert!(
        errors.is_empty(),
        "{} errors against the OpenAPI 3.1 meta-schema:\n{}",
        errors.len(),
        errors
            .iter()
            .map(|(at, message)| format!("  {at}: {message}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        document["openapi"]
            .as_str()
            .is_some_and(|v| v.starts_with("3.1.")),
        "openapi is {}",
        document["openapi"]
    );
    // What the meta-schema cannot say: operation ids are unique (OpenAPI 3.1 §4.8.10.1;
    // code generators name functions after them).
    let mut ids = std::collections::BTreeSet::new();
    for item in document["paths"].as_object().expect("paths").values() {
        for operation in item.as_object().expect("path item").values() {
            let id = operation["operationId"].as_str().expect("an operationId");
            assert!(ids.insert(id.to_owned()), "operationId {id:?} used twice");
        }
    }
    // The meta-schema requires `description`; an empty one would pass it but tell nothing.
    let responses = responses(document);
    assert!(responses.len() > 40, "only {} responses", responses.len());
    for (at, response) in responses {
        let description = response["description"].as_str().unwrap_or_default();
        assert!(
            description.trim().len() >= 5,
            "{at}: description {description:?} says nothing"
        );
    }
}

#[test]
fn in_process_document_is_valid_openapi_3_1() {
    assert_valid(&in_process());
}

#[test]
fn meta_schema_rejects_a_response_without_description() {
    let mut document = in_process();
    let pointer = "/paths/~1v1~1jobs/get/responses/400";
    let response = document
        .pointer_mut(pointer)
        .and_then(Value::as_object_mut)
        .expect("GET /v1/jobs documents a 400");
    assert!(response.shift_remove("description").is_some());
    let errors = errors(&document);
    assert!(
        errors
            .iter()
            .any(|(at, message)| at == pointer && message.contains("description")),
        "expected an error at {pointer} naming `description`, got {errors:#?}"
    );
    assert!(
        errors.iter().all(|(at, _)| at.starts_with(pointer)),
        "errors elsewhere: {errors:#?}"
    );
}

#[test]
fn meta_schema_rejects_other_invalid_documents() {
    // A wrong `openapi` version (a pattern) and a response code that is not one (a
    // `patternProperties` key): the meta-schema's patterns are really applied.
    let mut document = in_process();
    document["openapi"] = "3.0.3".into();
    assert!(errors(&document).iter().any(|(at, _)| at == "/openapi"));
    let mut document = in_process();
    let responses = document
        .pointer_mut("/paths/~1healthz/get/responses")
        .and_then(Value::as_object_mut)
        .expect("GET /healthz has responses");
    responses.insert(
        "20".into(),
        serde_json::json!({"description": "not a status"}),
    );
    assert!(!errors(&document).is_empty());
}

/// `GET path` over a fresh HTTP/1.1 connection: (status, content type, body).
async fn get(addr: std::net::SocketAddr, path: &str) -> (u16, String, Vec<u8>) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.expect("read");
    let end = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a header block");
    let head = String::from_utf8(answer[..end].to_vec()).expect("ASCII headers");
    let body = answer[end + 4..].to_vec();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let mut content_type = String::new();
    for line in lines {
        let (name, value) = line.split_once(':').expect("a header line");
        match name.to_ascii_lowercase().as_str() {
            "content-type" => content_type = value.trim().to_owned(),
            "content-length" => {
                assert_eq!(
                    value.trim().parse::<usize>().ok(),
                    Some(body.len()),
                    "length"
                );
            }
            "transfer-encoding" => panic!("unexpected transfer-encoding {value}"),
            _ => {}
        }
    }
    (status, content_type, body)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn served_document_is_valid_openapi_3_1() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = SqliteStore::open(&dir.path().join("jobgraph.db"), Synchronous::Normal, 2)
        .expect("open the store");
    let state = AppState::new(
        Arc::new(store),
        Arc::new(InProcess),
        ServiceConfig::default(),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("address");
    let server = tokio::spawn(async move { axum::serve(listener, router(state)).await });

    for path in ["/openapi.json", "/api/openapi.json"] {
        let (status, content_type, body) = get(addr, path).await;
        assert_eq!(status, 200, "GET {path}");
        assert_eq!(content_type, "application/json", "GET {path}");
        let served: Value = serde_json::from_slice(&body).expect("the served document is JSON");
        assert_valid(&served);
        assert_eq!(
            served,
            in_process(),
            "GET {path} serves the in-process document"
        );
    }
    server.abort();
}
