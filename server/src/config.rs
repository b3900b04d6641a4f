//! `jobgraph serve`'s settings: the options it is given, the `--config` file, the defaults.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::Deserialize;
use serde_json::Value;

use crate::state::ServiceConfig;
use crate::store::{Access, Synchronous, redact_url};

/// A client given with `--client ID:SECRET[:ORG]` or in the config file.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClientSpec {
    /// Client id.
    pub id: String,
    /// Its secret (hashed before it is stored; never printed).
    pub secret: String,
    /// Its organization (default `default`).
    #[serde(default = "default_org", alias = "org")]
    pub organization: String,
    /// Its organization role as a service account: `Admin` (default), `Member` or `Reader`.
    #[serde(default = "admin")]
    pub role: String,
    /// Its team roles: team id → `Leader` or `Member`.
    #[serde(default)]
    pub teams: std::collections::BTreeMap<String, String>,
}

fn admin() -> String {
    "Admin".into()
}

fn default_org() -> String {
    "default".into()
}

impl std::fmt::Debug for ClientSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientSpec")
            .field("id", &self.id)
            .field("secret", &"<redacted>")
            .field("organization", &self.organization)
            .field("role", &self.role)
            .field("teams", &self.teams)
            .finish()
    }
}

impl FromStr for ClientSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut parts = text.splitn(3, ':');
        let id = parts.next().unwrap_or_default();
        let secret = parts.next().unwrap_or_default();
        let organization = parts.next().map_or_else(default_org, str::to_owned);
        if id.is_empty() || secret.is_empty() || organization.is_empty() {
            return Err("expected ID:SECRET or ID:SECRET:ORG, each part non-empty".into());
        }
        // The organization names a folder of the data lake (docs/lake.md, "Names").
        jobgraph_core::names::check_path_name("organization", &organization)
            .map_err(|e| e.to_string())?;
        Ok(ClientSpec {
            id: id.to_owned(),
            secret: secret.to_owned(),
            organization,
            role: admin(),
            teams: Default::default(),
        })
    }
}

/// A database URL given with `--database`, `JOBGRAPH_DATABASE_URL` or the config file. It may
/// hold a password: `Debug` and `Display` show it as `***`.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(transparent)]
pub struct DatabaseUrl(pub String);

impl std::fmt::Debug for DatabaseUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", redact_url(&self.0))
    }
}

impl std::fmt::Display for DatabaseUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&redact_url(&self.0))
    }
}

impl FromStr for DatabaseUrl {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            Ok(DatabaseUrl(text.to_owned()))
        } else {
            Err("expected postgres://USER:PASSWORD@HOST:PORT/DATABASE (SQLite needs no URL: it is the default, in --data)".into())
        }
    }
}

/// What `jobgraph serve` is asked for, before the `--config` file and the defaults fill the
/// gaps ([`ServeOptions::settings`]). The command line's flags of the same names map onto it.
#[derive(Debug, Clone, Default)]
pub struct ServeOptions {
    /// Address to listen on (port 0: any free port) [default: 127.0.0.1:8080].
    pub addr: Option<SocketAddr>,
    /// Folder of the database (created if missing) [default: $XDG_DATA_HOME/jobgraph, else
    /// ~/.local/share/jobgraph].
    pub data: Option<PathBuf>,
    /// An API client: its id, secret and organization (default `default`). Repeatable. Stored
    /// hashed; a client given again gets the new secret. Prefer the config file for secrets:
    /// command lines are visible to other local users.
    pub clients: Vec<ClientSpec>,
    /// A PostgreSQL database instead of SQLite in --data, for replicas that share it
    /// (docs/deploy.md). Migrations are applied at start.
    pub database: Option<DatabaseUrl>,
    /// Most PostgreSQL connections this replica opens [default: 16].
    pub database_pool_size: Option<usize>,
    /// How long connecting to PostgreSQL, or waiting for a free connection, may take before a
    /// request fails with 503 [default: 5000].
    pub database_timeout_ms: Option<u64>,
    /// Where the data lake's files are: `file:///absolute/path` or `s3://bucket/prefix`
    /// [default: the folder `lake` in --data]. Wins over `lake.root` of the file.
    pub lake: Option<String>,
    /// A JSON settings file (see docs/api.md): `addr`, `data`, `clients`, `tokenTtlSeconds`,
    /// `maxBodyBytes`, `maxConcurrentScripts`, `limits`, `maxOperations`, `maxResolvedVertices`,
    /// `maxResolvedBytes`, `tokenThrottle`, `connections`, `triggers`, `fieldLimits`,
    /// `fairness`, `syncRuns`, `integrations`, `lake`, `runner`, `intake`, `workers`, `keptWorkers`, `synchronous`, `sqliteAccess`, `database`, `databasePoolSize`,
    /// `databaseTimeoutMs`. Flags win over the file.
    pub config: Option<PathBuf>,
    /// How to start the sandbox's worker processes [default: this program with the argument
    /// `sandbox-worker`, as the `jobgraph` binary answers; a program of your own calls
    /// [`jobgraph_sdk::sandbox_worker::serve`] for it]. Its `workers` wins over the file's.
    pub sandbox_worker: Option<jobgraph_sdk::ProcessConfig>,
}

/// Everything `jobgraph serve` runs with.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Listening address.
    pub addr: SocketAddr,
    /// Database folder.
    pub data: PathBuf,
    /// Clients to store at start.
    pub clients: Vec<ClientSpec>,
    /// Sandbox worker processes (default: the machine's cores).
    pub workers: Option<usize>,
    /// Sandbox worker processes kept, idle ones included, over all organizations (default 64).
    pub kept_workers: Option<usize>,
    /// When SQLite syncs.
    pub synchronous: Synchronous,
    /// Whether other processes may open the SQLite database while the service runs.
    pub sqlite_access: Access,
    /// PostgreSQL instead of SQLite.
    pub database: Option<DatabaseSettings>,
    /// The sandbox's worker program, when not this program with `sandbox-worker`.
    pub sandbox_worker: Option<jobgraph_sdk::ProcessConfig>,
    /// The router's settings.
    pub service: ServiceConfig,
}

/// The PostgreSQL database to run on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatabaseSettings {
    /// Its URL.
    pub url: DatabaseUrl,
    /// Most connections.
    pub pool_size: usize,
    /// Connect and wait timeout, in milliseconds.
    pub timeout_ms: u64,
}

/// Why the settings cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file cannot be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not valid.
    #[error("{path}: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// No data folder given and no home folder to default to.
    #[error("no --data folder given and neither XDG_DATA_HOME nor HOME is set")]
    NoDataDir,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct FileConfig {
    addr: Option<SocketAddr>,
    data: Option<PathBuf>,
    #[serde(default)]
    clients: Vec<ClientSpec>,
    workers: Option<usize>,
    kept_workers: Option<usize>,
    #[serde(default)]
    synchronous: Synchronous,
    #[serde(default)]
    sqlite_access: Access,
    database: Option<DatabaseUrl>,
    database_pool_size: Option<usize>,
    database_timeout_ms: Option<u64>,
    #[serde(flatten)]
    service: ServiceConfig,
}

const FILE_KEYS: &[&str] = &[
    "addr",
    "data",
    "clients",
    "workers",
    "keptWorkers",
    "synchronous",
    "sqliteAccess",
    "database",
    "databasePoolSize",
    "databaseTimeoutMs",
    "tokenTtlSeconds",
    "maxBodyBytes",
    "maxConcurrentScripts",
    "limits",
    "maxOperations",
    "maxResolvedVertices",
    "maxResolvedBytes",
    "tokenThrottle",
    "connections",
    "triggers",
    "fieldLimits",
    "fairness",
    "syncRuns",
    "integrations",
    "lake",
    "runner",
    "intake",
    "login",
];

fn read_file(path: &Path) -> Result<FileConfig, ConfigError> {
    let invalid = |message: String| ConfigError::Invalid {
        path: path.to_owned(),
        message,
    };
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
        path: path.to_owned(),
        source,
    })?;
    let value: Value = jobgraph_core::parse_json(&text).map_err(|e| invalid(e.to_string()))?;
    let Value::Object(map) = &value else {
        return Err(invalid("must be a JSON object".into()));
    };
    if let Some(key) = map.keys().find(|k| !FILE_KEYS.contains(&k.as_str())) {
        return Err(invalid(format!(
            "unknown setting {key:?} (known: {})",
            FILE_KEYS.join(", ")
        )));
    }
    let file: FileConfig = serde_json::from_value(value).map_err(|e| invalid(e.to_string()))?;
    crate::integration_spec::check_integrations(&file.service.integrations).map_err(invalid)?;
    crate::login_config::check_users(&file.service.login.users).map_err(invalid)?;
    if file.service.intake.nats.is_some() {
        // An integration's events go to subject `{prefix}.{id}[.{partition}]`: one token.
        for (i, spec) in file.service.integrations.iter().enumerate() {
            if !spec
                .id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            {
                return Err(invalid(format!(
                    "integrations[{i}].id {:?}: with intake.nats an integration's id names a NATS subject token, so it may hold only letters, digits, `-` and `_`",
                    spec.id
                )));
            }
        }
    }
    for (i, client) in file.clients.iter().enumerate() {
        // The organization names a folder of the data lake (docs/lake.md, "Names").
        jobgraph_core::names::check_path_name("organization", &client.organization)
            .map_err(|e| invalid(format!("clients[{i}] (client {:?}): {e}", client.id)))?;
        crate::login_config::check_roles(&client.role, &client.teams)
            .map_err(|e| invalid(format!("clients[{i}] (client {:?}): {e}", client.id)))?;
    }
    if let Some(url) = &file.database {
        url.0
            .parse::<DatabaseUrl>()
            .map_err(|e| invalid(format!("database: {e}")))?;
    }
    #[cfg(unix)]
    if !file.clients.is_empty()
        || !file.service.login.users.is_empty()
        || file.database.as_ref().is_some_and(|u| u.0.contains('@'))
        || file.service.lake.s3_secret_access_key.is_some()
        || file
            .service
            .integrations
            .iter()
            .any(|i| i.ingest_key.is_some() || i.delivery_key.is_some())
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path)
            .map_err(|source| ConfigError::Read {
                path: path.to_owned(),
                source,
            })?
            .permissions()
            .mode();
        if mode & 0o077 != 0 {
            return Err(invalid(format!(
                "holds client secrets, passwords, a database URL, an S3 secret or integrations' ingest keys but is readable by other users (mode {:o}): chmod 600 it",
                mode & 0o777
            )));
        }
    }
    Ok(file)
}

/// The default data folder: `$XDG_DATA_HOME/jobgraph`, else `~/.local/share/jobgraph`.
pub fn default_data_dir() -> Option<PathBuf> {
    let nonempty = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    nonempty("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| nonempty("HOME").map(|home| Path::new(&home).join(".local/share")))
        .map(|base| base.join("jobgraph"))
}

impl ServeOptions {
    /// The settings: flags, then the file, then defaults.
    pub fn settings(&self) -> Result<Settings, ConfigError> {
        let file = match &self.config {
            Some(path) => read_file(path)?,
            None => FileConfig::default(),
        };
        let data = self
            .data
            .clone()
            .or(file.data)
            .or_else(default_data_dir)
            .ok_or(ConfigError::NoDataDir)?;
        let database = self
            .database
            .clone()
            .or(file.database)
            .map(|url| DatabaseSettings {
                url,
                pool_size: self
                    .database_pool_size
                    .or(file.database_pool_size)
                    .unwrap_or(16)
                    .max(1),
                timeout_ms: self
                    .database_timeout_ms
                    .or(file.database_timeout_ms)
                    .unwrap_or(5000)
                    .max(1),
            });
        let mut service = file.service;
        if let Some(root) = &self.lake {
            service.lake.root = Some(root.clone());
        }
        let mut clients = file.clients;
        clients.extend(self.clients.iter().cloned());
        Ok(Settings {
            addr: self
                .addr
                .or(file.addr)
                .unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 8080))),
            data,
            clients,
            workers: file.workers,
            kept_workers: file.kept_workers,
            synchronous: file.synchronous,
            sqlite_access: file.sqlite_access,
            database,
            sandbox_worker: self.sandbox_worker.clone(),
            service,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_specs() {
        let c: ClientSpec = "ci:s3cret:acme".parse().unwrap();
        assert_eq!((c.id.as_str(), c.organization.as_str()), ("ci", "acme"));
        let c: ClientSpec = "ci:s3:cret".parse().unwrap();
        assert_eq!(c.secret, "s3");
        let c: ClientSpec = "ci:s3cret".parse().unwrap();
        assert_eq!(c.organization, "default");
        assert!("ci".parse::<ClientSpec>().is_err());
        assert!(":x".parse::<ClientSpec>().is_err());
        // The organization is a folder of the data lake: the names rule, stated when refused.
        for org in ["a/b", "..", "x y", "50%", "a\\b", "é"] {
            let error = format!("ci:s3cret:{org}")
                .parse::<ClientSpec>()
                .unwrap_err();
            assert!(
                error.contains(jobgraph_core::names::PATH_NAME_RULE),
                "{org:?}: {error}"
            );
        }
        assert!(!format!("{c:?}").contains("s3cret"));
    }

    #[test]
    fn database_urls_lose_their_password_when_shown() {
        let url: DatabaseUrl = "postgres://app:s3cret@db:5432/jobgraph".parse().unwrap();
        assert_eq!(url.to_string(), "postgres://app:***@db:5432/jobgraph");
        assert!(!format!("{url:?}").contains("s3cret"));
        assert_eq!(
            redact_url("postgres://app@db/jobgraph"),
            "postgres://app@db/jobgraph"
        );
        assert_eq!(
            redact_url("host=db user=app password=s3cret dbname=jobgraph"),
            "host=db user=app password=*** dbname=jobgraph"
        );
        assert!("mysql://x".parse::<DatabaseUrl>().is_err());
    }
}
