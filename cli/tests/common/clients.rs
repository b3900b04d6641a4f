//! The shared server of the CLI and client tests: one `jobgraph serve` per test binary,
//! started with a fixed table of clients, each test using its own client and organization so
//! that the server's log counts that test's requests alone. Its runner is off: the jobs the
//! tests create are stored and listed, never run (serve_lake/runner.rs runs jobs).

use std::sync::OnceLock;

use super::Server;

/// `(client id, secret, organization)` of each client a [`SharedServer`] is started with.
pub type ClientTable = &'static [(&'static str, &'static str, &'static str)];

/// A server started on first use with `--client ID:SECRET:ORG` for each of its clients, kept
/// for the whole test binary (killed when it exits).
pub struct SharedServer {
    clients: ClientTable,
    server: OnceLock<Server>,
}

impl SharedServer {
    pub const fn new(clients: ClientTable) -> SharedServer {
        SharedServer {
            clients,
            server: OnceLock::new(),
        }
    }

    /// The server, started on the first call.
    pub fn get(&self) -> &Server {
        self.server.get_or_init(|| {
            let specs: Vec<String> = self
                .clients
                .iter()
                .map(|(id, secret, org)| format!("{id}:{secret}:{org}"))
                .collect();
            let mut args = Vec::new();
            for spec in &specs {
                args.push("--client");
                args.push(spec.as_str());
            }
            // Its jobs are the subject of commands and formats, not run: the runner is off
            // (an API-only replica), so that their states stay as created.
            Server::start_with_config(&serde_json::json!({"runner": {"enabled": false}}), &args)
        })
    }

    /// The secret of client `id`, one of the table's.
    pub fn secret_of(&self, id: &str) -> &'static str {
        self.clients
            .iter()
            .find(|(c, _, _)| *c == id)
            .map(|(_, s, _)| *s)
            .expect("a known client")
    }
}

/// How many tokens `server` issued to organization `org` (its log's successful
/// `/oauth/token` lines).
pub fn token_lines(server: &Server, org: &str) -> usize {
    server.log_lines(&["path=/oauth/token ", "status=200", &format!("org={org}")])
}
