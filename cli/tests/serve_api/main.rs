//! What of the service's endpoints needs the real `jobgraph serve` binary on a loopback port:
//! the sandbox's worker processes beside reads, the request log on stderr. One server for the
//! whole file, two organizations (`acme`: alice; `globex`: bob). The endpoints' behaviour is
//! tested in process, in `server/tests/api`.

#[path = "../common/mod.rs"]
mod common;
mod concurrency;
mod login;

use std::collections::BTreeSet;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::{Response, Server, filter_template};
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
