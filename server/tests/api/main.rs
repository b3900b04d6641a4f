//! The service's endpoints in process (issue 37 part 6): the router on a store of its own,
//! called through `oneshot` with no process or port; one service for the whole binary, two
//! organizations (`acme`: alice; `globex`: bob). What needs a real process (sockets, signals,
//! the sandbox's worker processes, the binary's output) stays in `cli/tests`.

mod auth;
mod datasets;
mod grok;
mod harness;
mod jobs;
mod lake;
mod public_examples;
mod roles;
mod strict;
mod sync_runs;
mod templates;
mod throttle;

use std::collections::BTreeSet;
use std::sync::OnceLock;
use std::time::Duration;

use harness::{Harness, Response, filter_template, job_using};
use serde_json::{Value, json};

pub(crate) fn server() -> &'static Harness {
    static SERVER: OnceLock<Harness> = OnceLock::new();
    SERVER.get_or_init(|| {
        Harness::start(
            &[
                ("alice", "alice-secret-1", "acme"),
                ("bob", "bob-secret-2", "globex"),
            ],
            json!({}),
        )
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
    server().request(method, path, &headers, Some(body))
}
