//! The service in process: its router on a store of its own (SQLite in a temporary folder, or
//! a fresh PostgreSQL database when `JOBGRAPH_TEST_DATABASE_URL` is set), called through
//! `tower::ServiceExt::oneshot` as the listener would call it (the peer's address attached), with
//! no process, port or socket. Answers come back as [`Response`], the shape the black-box
//! suites read, so a test moved from `cli/tests` keeps every assertion.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::Command;
use std::sync::{Arc, OnceLock};

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::Request;
use jobgraph_core::InProcess;
use jobgraph_server::store::{ClientRecord, Grants};
use jobgraph_server::{
    AppState, ServiceConfig, SqliteStore, Store, Synchronous, hash_secret, router,
};
use serde_json::{Value, json};
use tower::ServiceExt;

/// The runtime every call runs on (two workers, as a small server).
pub fn rt() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a tokio runtime")
    })
}

/// The PostgreSQL server to run on instead of SQLite, when `JOBGRAPH_TEST_DATABASE_URL` is set
/// (`postgres://USER@HOST:PORT/DB` of a throwaway cluster: `scripts/pg-cluster.sh`).
pub fn postgres_url() -> Option<String> {
    std::env::var("JOBGRAPH_TEST_DATABASE_URL")
        .ok()
        .filter(|url| !url.is_empty())
}

/// The URL of a new database `name` on the server of `base` (made with `psql`).
fn postgres_database(base: &str, name: &str) -> String {
    let out = Command::new("psql")
        .args([base, "-qtA", "-v", "ON_ERROR_STOP=1", "-c"])
        .arg(format!("CREATE DATABASE {name}"))
        .output()
        .expect("psql (from PostgreSQL's client package) on PATH");
    assert!(
        out.status.success(),
        "psql CREATE DATABASE {name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (server, _) = base.rsplit_once('/').expect("a URL ending in /DATABASE");
    format!("{server}/{name}")
}

pub use jobgraph_testkit::Response;
pub use jobgraph_testkit::fixtures::{filter_template, job_using};

/// A service in process.
pub struct Harness {
    router: Router,
    /// A folder of its own: the service's data (the SQLite database, the lake) is in `db/`
    /// under it, as in the black-box suites' servers.
    pub data: PathBuf,
    _dir: tempfile::TempDir,
}

impl Harness {
    /// A service with `clients` (id, secret, organization) and the `settings` of a
    /// configuration file's service part (`{}`: the defaults).
    pub fn start(clients: &[(&str, &str, &str)], settings: Value) -> Harness {
        let clients: Vec<(&str, &str, &str, Grants)> = clients
            .iter()
            .map(|(id, secret, org)| (*id, *secret, *org, Grants::role("Admin")))
            .collect();
        Harness::start_with_roles(&clients, settings)
    }

    /// As [`Harness::start`], each client with its roles (a service account's).
    pub fn start_with_roles(clients: &[(&str, &str, &str, Grants)], settings: Value) -> Harness {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let data = dir.path().to_owned();
        std::fs::create_dir_all(data.join("db")).expect("a data folder");
        let config: ServiceConfig =
            serde_json::from_value(settings).expect("valid service settings");
        let clients: Vec<(String, String, String, Grants)> = clients
            .iter()
            .map(|(id, secret, org, grants)| {
                (
                    (*id).into(),
                    (*secret).into(),
                    (*org).into(),
                    grants.clone(),
                )
            })
            .collect();
        let folder = data.join("db");
        let database = format!(
            "jg_api_{}",
            data.file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("db")
                .to_ascii_lowercase()
                .replace(|c: char| !c.is_ascii_alphanumeric(), "_")
        );
        let state = rt().block_on(async move {
            let store: Arc<dyn Store> = match postgres_url() {
                Some(base) => {
                    let name = database;
                    let url = postgres_database(&base, &name);
                    let options = jobgraph_server::store::PostgresOptions::new(url);
                    Arc::new(
                        jobgraph_server::store::PostgresStore::connect(&options)
                            .await
                            .expect("the PostgreSQL store"),
                    )
                }
                None => Arc::new(
                    SqliteStore::open(&folder.join("jobgraph.db"), Synchronous::Normal, 4)
                        .expect("a SQLite store"),
                ),
            };
            for (client_id, secret, organization, grants) in clients {
                let secret_hash = hash_secret(&secret).expect("a secret hash");
                store
                    .put_client(ClientRecord {
                        client_id,
                        organization,
                        secret_hash,
                        grants,
                    })
                    .await
                    .expect("a client");
            }
            let lake = config.lake.open(&folder).expect("the lake");
            AppState::new(store, Arc::new(InProcess), config).with_lake(lake)
        });
        Harness {
            router: router(state),
            data,
            _dir: dir,
        }
    }

    /// The address answers name: nothing listens there, it only fills URLs.
    pub fn url(&self) -> String {
        "http://jobgraph.test".into()
    }

    /// One request as the hand-written client of the black-box suites sends it: `Host`, the
    /// given headers, `Content-Length` (0 for a write without a body); from 127.0.0.1. The
    /// answer's body is not read: the caller reads it when (and if) it wants.
    pub fn send(
        &self,
        method: &str,
        path: &str,
        headers: &[(String, String)],
        body: Option<&[u8]>,
    ) -> axum::response::Response {
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header("host", "jobgraph.test");
        for (name, value) in headers {
            request = request.header(name.as_str(), value.as_str());
        }
        if let Some(body) = body {
            request = request.header("content-length", body.len());
        } else if method != "GET" && method != "DELETE" {
            request = request.header("content-length", 0);
        }
        let mut request = request
            .body(Body::from(body.unwrap_or_default().to_vec()))
            .expect("a request");
        let peer: SocketAddr = "127.0.0.1:40000".parse().expect("an address");
        request.extensions_mut().insert(ConnectInfo(peer));
        let router = self.router.clone();
        rt().block_on(async move {
            router
                .oneshot(request)
                .await
                .expect("the router never fails")
        })
    }

    /// [`Harness::send`] and the whole answer.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        headers: &[(String, String)],
        body: Option<&[u8]>,
    ) -> Response {
        let response = self.send(method, path, headers, body);
        let status = response.status().as_u16();
        let headers = response
            .headers()
            .iter()
            .map(|(k, v)| {
                (
                    k.as_str().to_owned(),
                    v.to_str().unwrap_or_default().to_owned(),
                )
            })
            .collect();
        let bytes = rt()
            .block_on(axum::body::to_bytes(response.into_body(), usize::MAX))
            .expect("a body");
        Response {
            status,
            headers,
            body: String::from_utf8_lossy(&bytes).into_owned(),
        }
    }

    /// A JSON request with an optional bearer token.
    pub fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Response {
        let mut headers = Vec::new();
        if let Some(token) = token {
            headers.push(("Authorization".to_owned(), format!("Bearer {token}")));
        }
        let body = body.map(|b| {
            headers.push(("Content-Type".to_owned(), "application/json".to_owned()));
            b.to_string().into_bytes()
        });
        self.request(method, path, &headers, body.as_deref())
    }

    /// A token for a client (client credentials).
    pub fn token(&self, id: &str, secret: &str) -> String {
        let r = self.call(
            "POST",
            "/oauth/token",
            None,
            Some(&json!({"client_id": id, "client_secret": secret,
                         "audience": "service", "grant_type": "client_credentials"})),
        );
        assert_eq!(r.status, 200, "token for {id}: {}", r.body);
        r.json()["access_token"]
            .as_str()
            .expect("a token")
            .to_owned()
    }
}
