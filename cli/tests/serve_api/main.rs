//! The service's endpoints against the real `jobgraph serve` binary on a loopback port: one
//! server for the whole file, two organizations (`acme`: alice; `globex`: bob).

mod auth;
#[path = "../common/mod.rs"]
mod common;
mod concurrency;
mod grok;
mod jobs;
mod public_examples;
mod strict;
mod sync_runs;
mod templates;

use std::collections::BTreeSet;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::{Response, Server, filter_template, job_using, request};
use serde_json::{Value, json};

pub(crate) fn server() -> &'static Server {
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

pub(crate) fn alice() -> &'static str {
    static TOKEN: OnceLock<String> = OnceLock::new();
    TOKEN.get_or_init(|| server().token("alice", "alice-secret-1"))
}

pub(crate) fn bob() -> &'static str {
    static TOKEN: OnceLock<String> = OnceLock::new();
    TOKEN.get_or_init(|| server().token("bob", "bob-secret-2"))
}

pub(crate) fn call(
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> Response {
    server().call(method, path, token, body)
}

pub(crate) fn create_template(token: &str, body: &Value) -> Value {
    let r = call("POST", "/v1/templates", Some(token), Some(body));
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()
}

pub(crate) fn raw(method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Response {
    let headers: Vec<(String, String)> = headers
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    request(server().addr, method, path, &headers, Some(body))
}
