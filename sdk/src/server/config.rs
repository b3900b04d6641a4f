//! `jobgraph serve`'s settings: command-line flags and the `--config` file.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::Deserialize;
use serde_json::Value;

use super::state::ServiceConfig;
use super::store::Synchronous;

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
        Ok(ClientSpec {
            id: id.to_owned(),
            secret: secret.to_owned(),
            organization,
        })
    }
}

/// `jobgraph serve` options.
#[derive(Debug, Clone, clap::Args)]
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
    /// A JSON settings file (see docs/api.md): `addr`, `data`, `clients`, `tokenTtlSeconds`,
    /// `maxBodyBytes`, `maxConcurrentScripts`, `limits`, `maxOperations`, `workers`,
    /// `synchronous`. Flags win over the file.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
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
    /// When SQLite syncs.
    pub synchronous: Synchronous,
    /// The router's settings.
    pub service: ServiceConfig,
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
    #[serde(default)]
    synchronous: Synchronous,
    #[serde(flatten)]
    service: ServiceConfig,
}

const FILE_KEYS: &[&str] = &[
    "addr",
    "data",
    "clients",
    "workers",
    "synchronous",
    "tokenTtlSeconds",
    "maxBodyBytes",
    "maxConcurrentScripts",
    "limits",
    "maxOperations",
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
    #[cfg(unix)]
    if !file.clients.is_empty() {
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
                "holds client secrets but is readable by other users (mode {:o}): chmod 600 it",
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

impl ServeArgs {
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
            synchronous: file.synchronous,
            service: file.service,
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
        assert!(!format!("{c:?}").contains("s3cret"));
    }
}
