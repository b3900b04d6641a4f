//! `/v1/datasets` and `/v1/integrations` in process: one service for the module, with
//! integrations in its settings; each test has its own client and organization.

mod api;
mod integrations;

use std::sync::OnceLock;

use serde_json::{Value, json};

use crate::harness::{Harness, Response};

/// `(client id, secret, organization)` of each client the service knows.
const CLIENTS: &[(&str, &str, &str)] = &[
    ("crud", "crud-secret-1", "org-crud"),
    ("isolated", "isolated-secret-2", "org-isolated"),
    ("pager", "pager-secret-3", "org-pager"),
    ("integ", "integ-secret-4", "org-integ"),
    ("integ-other", "integ-other-secret-5", "org-integ-other"),
    ("bad", "bad-secret-7", "org-bad"),
];

pub(crate) fn server() -> &'static Harness {
    static SERVER: OnceLock<Harness> = OnceLock::new();
    SERVER.get_or_init(|| {
        Harness::start(
            CLIENTS,
            json!({
                "fieldLimits": {"name": 64},
                "integrations": [
                    {"id": "splunk-prod", "name": "Splunk (production)", "type": "splunk"},
                    {"id": "s3-archive", "name": "Archive bucket", "type": "s3",
                     "organizations": ["org-integ", "org-cli"]}
                ]
            }),
        )
    })
}

/// An access token of client `id` (one per client for the whole binary).
pub(crate) fn token(id: &str) -> String {
    static TOKENS: OnceLock<std::sync::Mutex<std::collections::HashMap<String, String>>> =
        OnceLock::new();
    let secret = CLIENTS
        .iter()
        .find(|(c, _, _)| *c == id)
        .map(|(_, s, _)| *s)
        .expect("a known client");
    let tokens = TOKENS.get_or_init(Default::default);
    let mut tokens = tokens.lock().unwrap();
    tokens
        .entry(id.to_owned())
        .or_insert_with(|| server().token(id, secret))
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

pub(crate) use jobgraph_testkit::in_list_order;
