//! The API client against the real `jobgraph serve` on loopback: token reuse, single-flight
//! refresh, one retry after a 401 with a known token (never a loop) or with one that expired
//! while 429s were retried, retries with `Retry-After`, the remote template source, the disk token store, and secrets kept out of
//! `Debug` output. One server for the test binary (each test its own client and organization,
//! so that the server's log counts its requests alone); a second one with short-lived tokens
//! and one script per organization for the expiry and 429 tests.

#[path = "../common/mod.rs"]
mod common;
mod endpoints;
mod resolution;
mod retries;
mod secrets;
mod tokens;

use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, SystemTime};

use common::clients::{SharedServer, token_lines};
use common::{Server, filter_template, job_using};
use jobgraph_sdk::api::{CreateJob, Execution, Processing, TemplateInput, TemplateTest, UpdateJob};
use jobgraph_sdk::client::{
    AccessToken, Client, ClientError, Credentials, DiskTokenStore, JobFilter, JobVersion,
    RemoteSource, RetryPolicy, TemplateVersions, TokenKey, TokenStore,
};
use serde_json::{Value, json};

static SHARED: SharedServer = SharedServer::new(&[
    ("reuse", "reuse-secret-1", "org-reuse"),
    ("flight", "flight-secret-2", "org-flight"),
    ("revoked", "revoked-secret-3", "org-revoked"),
    ("loop", "loop-secret-4", "org-loop"),
    ("disk", "disk-secret-5", "org-disk"),
    ("api", "api-secret-6", "org-api"),
    ("remote", "remote-secret-7", "org-remote"),
]);

fn server() -> &'static Server {
    SHARED.get()
}

/// Tokens live 2 s; one script per organization at a time.
fn short_server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        Server::start_with_config(
            &json!({"tokenTtlSeconds": 2, "maxConcurrentScripts": 1}),
            &[
                "--client",
                "short:short-secret-8:org-short",
                "--client",
                "busy:busy-secret-9:org-busy",
            ],
        )
    })
}

fn secret_of(id: &str) -> &'static str {
    SHARED.secret_of(id)
}

fn client(id: &str) -> Client {
    Client::builder(server().url())
        .credentials(Credentials::new(id, secret_of(id)))
        .build()
        .expect("a client")
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// Trace lines, collected.
fn recorder() -> (jobgraph_sdk::client::Trace, Arc<Mutex<Vec<String>>>) {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let sink = lines.clone();
    (
        Arc::new(move |line: &str| sink.lock().unwrap().push(line.to_owned())),
        lines,
    )
}
