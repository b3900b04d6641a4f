//! `jobgraph serve`'s flags; the service itself is the `jobgraph-server` crate.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Args;
use jobgraph_server::ServeOptions;
use jobgraph_server::config::{ClientSpec, DatabaseUrl};

/// `jobgraph user:add` options.
#[derive(Debug, Clone, Args)]
pub struct UserAddArgs {
    /// Their name, unique in the organization (`editedBy` of what they write).
    pub name: String,
    /// Their organization.
    #[arg(long = "org", value_name = "ORG")]
    pub organization: String,
    /// Their organization role: Admin, Member or Reader.
    #[arg(long, default_value = "Member", value_parser = ["Admin", "Member", "Reader"])]
    pub role: String,
    /// A team role, TEAM=Leader or TEAM=Member. Repeatable.
    #[arg(long = "team", value_name = "TEAM=ROLE", value_parser = team_role)]
    pub teams: Vec<(String, String)>,
    /// Folder of the service's database (as `jobgraph serve --data`).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// The service's PostgreSQL database (as `jobgraph serve --database`).
    #[arg(
        long,
        value_name = "postgres://USER:PASSWORD@HOST:PORT/DB",
        env = "JOBGRAPH_DATABASE_URL",
        hide_env_values = true
    )]
    pub database: Option<DatabaseUrl>,
    /// The service's settings file (as `jobgraph serve --config`): its `data` or `database`.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

fn team_role(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((team, role)) if !team.is_empty() && matches!(role, "Leader" | "Member") => {
            Ok((team.to_owned(), role.to_owned()))
        }
        _ => Err("expected TEAM=Leader or TEAM=Member".into()),
    }
}

impl UserAddArgs {
    /// Where the store is, as `jobgraph serve` would find it.
    pub fn store_options(&self) -> ServeOptions {
        ServeOptions {
            addr: None,
            data: self.data.clone(),
            clients: Vec::new(),
            database: self.database.clone(),
            database_pool_size: None,
            database_timeout_ms: None,
            lake: None,
            config: self.config.clone(),
            sandbox_worker: None,
        }
    }
}

/// `jobgraph serve` options.
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Address to listen on (port 0: any free port) [default: 127.0.0.1:8080].
    #[arg(long, value_name = "HOST:PORT")]
    pub addr: Option<SocketAddr>,
    /// Folder of the database (created if missing) [default: $XDG_DATA_HOME/jobgraph, else
    /// ~/.local/share/jobgraph].
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// An API client: its id, secret and organization (default `default`). Repeatable. Stored
    /// hashed; a client given again gets the new secret. Prefer the config file for secrets:
    /// command lines are visible to other local users.
    #[arg(long = "client", value_name = "ID:SECRET[:ORG]")]
    pub clients: Vec<ClientSpec>,
    /// A PostgreSQL database instead of SQLite in --data, for replicas that share it
    /// (docs/deploy.md). Migrations are applied at start.
    #[arg(
        long,
        value_name = "postgres://USER:PASSWORD@HOST:PORT/DB",
        env = "JOBGRAPH_DATABASE_URL",
        hide_env_values = true
    )]
    pub database: Option<DatabaseUrl>,
    /// Most PostgreSQL connections this replica opens [default: 16].
    #[arg(long, value_name = "N")]
    pub database_pool_size: Option<usize>,
    /// How long connecting to PostgreSQL, or waiting for a free connection, may take before a
    /// request fails with 503 [default: 5000].
    #[arg(long, value_name = "MS")]
    pub database_timeout_ms: Option<u64>,
    /// Where the data lake's files are: `file:///absolute/path` or `s3://bucket/prefix` (S3
    /// settings in the --config file's `lake`) [default: the folder `lake` in --data].
    #[arg(long, value_name = "URL")]
    pub lake: Option<String>,
    /// A JSON settings file (see docs/api.md): `addr`, `data`, `clients`, `tokenTtlSeconds`,
    /// `maxBodyBytes`, `maxConcurrentScripts`, `limits`, `maxOperations`, `maxResolvedVertices`,
    /// `maxResolvedBytes`, `tokenThrottle`, `connections`, `triggers`, `fieldLimits`,
    /// `fairness`, `syncRuns`, `integrations`, `lake`, `workers`, `keptWorkers`, `synchronous`, `database`, `databasePoolSize`,
    /// `databaseTimeoutMs` (every limit and its default: docs/api.md, "Limits and timeouts").
    /// Flags win over the file.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

impl From<ServeArgs> for ServeOptions {
    fn from(args: ServeArgs) -> Self {
        ServeOptions {
            addr: args.addr,
            data: args.data,
            clients: args.clients,
            database: args.database,
            database_pool_size: args.database_pool_size,
            database_timeout_ms: args.database_timeout_ms,
            lake: args.lake,
            config: args.config,
            // This binary answers `jobgraph sandbox-worker`.
            sandbox_worker: None,
        }
    }
}
