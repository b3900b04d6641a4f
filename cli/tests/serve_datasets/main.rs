//! The `dataset:*` and `integration:*` commands of the `jobgraph` binary and the public client's
//! walk of `/v1/datasets` and `/v1/integrations` against the real `jobgraph serve` on loopback
//! (one server for the whole binary, on PostgreSQL when `JOBGRAPH_TEST_DATABASE_URL` is set),
//! and the start-up checks of integrations. Each test has its own client and organization. The
//! endpoints' behaviour is tested in process, in `server/tests/api/datasets`.

mod cli;
#[path = "../common/mod.rs"]
mod common;
mod files;
mod public_client;
mod startup;

use std::sync::OnceLock;

use common::{Response, Server};
use serde_json::{Value, json};

/// `(client id, secret, organization)` of each client the server knows.
pub(crate) const CLIENTS: &[(&str, &str, &str)] = &[
    ("crud", "crud-secret-1", "org-crud"),
    ("isolated", "isolated-secret-2", "org-isolated"),
    ("pager", "pager-secret-3", "org-pager"),
    ("integ", "integ-secret-4", "org-integ"),
    ("integ-other", "integ-other-secret-5", "org-integ-other"),
    ("cli", "cli-secret-6", "org-cli"),
    ("bad", "bad-secret-7", "org-bad"),
    ("wire", "wire-secret-8", "org-wire"),
    ("linker", "linker-secret-9", "org-linker"),
];

pub(crate) fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        let specs: Vec<String> = CLIENTS
            .iter()
            .map(|(id, secret, org)| format!("{id}:{secret}:{org}"))
            .collect();
        let mut args = Vec::new();
        for spec in &specs {
            args.push("--client");
            args.push(spec.as_str());
        }
        let settings = json!({
            // files.rs opens the SQLite database beside the running server.
            "sqliteAccess": "shared",
            "fieldLimits": {"name": 64},
            "integrations": [
                {"id": "splunk-prod", "name": "Splunk (production)", "type": "splunk"},
                {"id": "s3-archive", "name": "Archive bucket", "type": "s3",
                 "organizations": ["org-integ", "org-cli"]},
                // One of each public type for `org-wire` (public_client.rs), by several of the
                // spellings our `type` maps, and one of no public type.
                {"id": "dd-prod", "name": "Datadog (production)", "type": "datadog",
                 "organizations": ["org-wire"],
                 "payload": {"site": "datadoghq.eu", "additionalTags": ["env:prod"]}},
                {"id": "nr-main", "name": "New Relic", "type": "new-relic", "organizations": ["org-wire"]},
                {"id": "collector", "name": "Collector", "type": "otel", "organizations": ["org-wire"],
                 "payload": {"endpoint": "http://collector:4318"}},
                {"id": "splunk-wire", "name": "Splunk", "type": "Splunk", "organizations": ["org-wire"]},
                {"id": "sumo-main", "name": "Sumo Logic", "type": "sumologic", "organizations": ["org-wire"]},
                {"id": "warehouse", "name": "Warehouse", "type": "data-warehouse", "organizations": ["org-wire"]},
                {"id": "wire-bucket", "name": "Bucket", "type": "s3", "organizations": ["org-wire"],
                 "payload": {"bucketName": "wire-archive"}},
                {"id": "kafka-wire", "name": "Kafka", "type": "kafka", "organizations": ["org-wire"]}
            ]
        });
        Server::start_with_config(&settings, &args)
    })
}

pub(crate) fn secret_of(id: &str) -> &'static str {
    CLIENTS
        .iter()
        .find(|(c, _, _)| *c == id)
        .map(|(_, s, _)| *s)
        .expect("a known client")
}

/// An access token of client `id` (one per client for the whole binary).
pub(crate) fn token(id: &str) -> String {
    static TOKENS: OnceLock<std::sync::Mutex<std::collections::HashMap<String, String>>> =
        OnceLock::new();
    let tokens = TOKENS.get_or_init(Default::default);
    let mut tokens = tokens.lock().unwrap();
    tokens
        .entry(id.to_owned())
        .or_insert_with(|| server().token(id, secret_of(id)))
        .clone()
}

pub(crate) fn call(method: &str, path: &str, client: &str, body: Option<&Value>) -> Response {
    server().call(method, path, Some(&token(client)), body)
}

/// Creates a dataset and returns the answer.
pub(crate) fn create(client: &str, body: Value) -> Value {
    let r = call("POST", "/v1/datasets", client, Some(&body));
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()
}
