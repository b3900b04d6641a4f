//! `~/.jobgraph/cli-config.json` and the settings of a run: flags, then `JOBGRAPH_*`
//! environment variables (clap reads both, flags first), then the saved configuration
//! (`--conf NAME`, else `_default`), then defaults. The client secret comes only from
//! `JOBGRAPH_CLIENT_SECRET` and is never written anywhere.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::args::Global;
use crate::failure::Failure;
use crate::input::io_reason;

/// The API base address when nothing says otherwise: `jobgraph serve`'s default address.
pub const DEFAULT_API_BASE_URL: &str = "http://127.0.0.1:8080/api";

/// The folder of the configuration file and the token cache: `$HOME/.jobgraph`.
pub fn home_dir() -> Result<PathBuf, Failure> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .or_else(std::env::home_dir)
        .map(|home| home.join(".jobgraph"))
        .ok_or_else(|| Failure::usage("cannot find the home folder: set HOME"))
}

/// One saved configuration. Keys this version does not know are kept as they are.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Saved {
    /// Organization name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub org_name: Option<String>,
    /// Identity provider base address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auth_base_url: Option<String>,
    /// `client-credentials` (a client id and secret), or `oauth`: a person logs in (the first
    /// command that needs a token starts `jobgraph login`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auth_method: Option<String>,
    /// OAuth 2.0 client id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
    /// Whether tokens are cached in ~/.jobgraph/auth/ (default true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auth_cache: Option<bool>,
    /// Whether a login opens the desktop's browser (default true; false: the address is
    /// printed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub browser: Option<bool>,
    /// API base address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_base_url: Option<String>,
    /// Anything else.
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// The configuration file: named configurations and `_default`.
#[derive(Debug, Clone, Default)]
pub struct ConfigFile {
    /// Where it is.
    pub path: PathBuf,
    /// The default configuration's name.
    pub default: Option<String>,
    /// The configurations, in file order.
    pub entries: IndexMap<String, Saved>,
}

impl ConfigFile {
    /// `~/.jobgraph/cli-config.json` (empty when missing).
    pub fn load() -> Result<ConfigFile, Failure> {
        Self::load_from(&home_dir()?.join("cli-config.json"))
    }

    /// The file at `path` (empty when missing).
    pub fn load_from(path: &Path) -> Result<ConfigFile, Failure> {
        let text = match fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(ConfigFile {
                    path: path.to_owned(),
                    ..ConfigFile::default()
                });
            }
            Err(e) => {
                return Err(Failure::usage(format!(
                    "cannot read {}: {}",
                    path.display(),
                    io_reason(&e)
                )));
            }
        };
        let invalid =
            |why: String| Failure::usage(format!("{} is not valid: {why}", path.display()));
        let value = jobgraph_core::parse_json(&text)
            .map_err(|e| Failure::usage(format!("{} is not valid JSON: {e}", path.display())))?;
        let Value::Object(map) = value else {
            return Err(invalid("it is not a JSON object".into()));
        };
        let mut file = ConfigFile {
            path: path.to_owned(),
            ..ConfigFile::default()
        };
        for (name, entry) in map {
            if name == "_default" {
                file.default = match entry {
                    Value::String(s) => Some(s),
                    Value::Null => None,
                    _ => return Err(invalid("`_default` is not a string".into())),
                };
                continue;
            }
            let saved: Saved = serde_json::from_value(entry)
                .map_err(|e| invalid(format!("configuration {name:?}: {e}")))?;
            file.entries.insert(name, saved);
        }
        Ok(file)
    }

    /// Writes the file atomically (temporary file + rename), mode 0600 in a 0700 folder.
    pub fn save(&self) -> Result<(), Failure> {
        let mut map = Map::new();
        for (name, saved) in &self.entries {
            map.insert(
                name.clone(),
                serde_json::to_value(saved).unwrap_or_default(),
            );
        }
        if let Some(default) = &self.default {
            map.insert("_default".into(), json!(default));
        }
        let mut text = serde_json::to_string_pretty(&Value::Object(map)).unwrap_or_default();
        text.push('\n');
        write_private(&self.path, text.as_bytes()).map_err(|e| {
            Failure::failed(format!(
                "cannot write {}: {}",
                self.path.display(),
                io_reason(&e)
            ))
        })
    }
}

/// Writes `bytes` to `path` atomically, owner-only.
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(dir, fs::Permissions::from_mode(0o700))?;
    }
    let temp = dir.join(format!(
        ".{}.{}.tmp",
        path.file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default(),
        std::process::id()
    ));
    let mut options = fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let result = options
        .open(&temp)
        .and_then(|mut out| {
            out.write_all(bytes)?;
            out.sync_all()
        })
        .and_then(|()| fs::rename(&temp, path));
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result
}

/// Where a setting came from (for `-d`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A flag.
    Flag,
    /// A `JOBGRAPH_*` variable.
    Env,
    /// The saved configuration.
    Saved,
    /// The default.
    Default,
}

impl Source {
    fn describe(self, env: &str) -> String {
        match self {
            Source::Flag => "flag".into(),
            Source::Env => env.to_owned(),
            Source::Saved => "saved configuration".into(),
            Source::Default => "default".into(),
        }
    }
}

/// The settings of one run.
#[derive(Clone)]
pub struct Settings {
    /// The saved configuration in use, if any.
    pub conf: Option<String>,
    /// Organization name.
    pub org_name: Option<String>,
    /// API base address.
    pub api_base_url: String,
    /// Identity provider base address.
    pub auth_base_url: String,
    /// Client id.
    pub client_id: Option<String>,
    /// Whether tokens are cached on disk.
    pub auth_cache: bool,
    /// `authMethod: oauth`: a person's login, started by the first command that needs one.
    pub oauth: bool,
    /// Whether a login opens the desktop's browser (`browser`, default true).
    pub browser: bool,
    /// Where each came from: (setting, source) lines for `-d`.
    pub sources: Vec<String>,
}

impl std::fmt::Debug for Settings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Settings")
            .field("conf", &self.conf)
            .field("org_name", &self.org_name)
            .field("api_base_url", &self.api_base_url)
            .field("auth_base_url", &self.auth_base_url)
            .field("client_id", &self.client_id)
            .field("auth_cache", &self.auth_cache)
            .field("oauth", &self.oauth)
            .field("browser", &self.browser)
            .finish()
    }
}

impl Settings {
    /// How messages name where the credentials come from.
    pub fn describe(&self) -> String {
        match &self.conf {
            Some(name) => format!("configuration {name:?}"),
            None => {
                "the command line (--client-id or JOBGRAPH_CLIENT_ID, and JOBGRAPH_CLIENT_SECRET)"
                    .into()
            }
        }
    }
}

/// The source of a global flag: command line or environment.
fn arg_source(matches: &clap::ArgMatches, id: &str) -> Source {
    match matches.value_source(id) {
        Some(clap::parser::ValueSource::EnvVariable) => Source::Env,
        _ => Source::Flag,
    }
}

/// The default auth base address: the API's without a trailing `/api`.
pub fn default_auth_base(api: &str) -> String {
    let api = api.trim_end_matches('/');
    api.strip_suffix("/api").unwrap_or(api).to_owned()
}

/// The settings of this run, from `global` (flags and environment), the file and defaults.
/// `base`: the saved configuration to start from (`None`: `--conf`, else `_default`).
pub fn settings(
    global: &Global,
    matches: &clap::ArgMatches,
    file: &ConfigFile,
    base: Option<&str>,
) -> Result<Settings, Failure> {
    let conf = match base {
        Some(name) => Some(name.to_owned()),
        None => global.conf.clone().or_else(|| file.default.clone()),
    };
    let saved = match &conf {
        Some(name) => match file.entries.get(name) {
            Some(saved) => Some(saved.clone()),
            None if base.is_some() => None,
            None if global.conf.is_some() => {
                return Err(Failure::usage(format!(
                    "no configuration named {name:?} in {} (config:list shows them)",
                    file.path.display()
                )));
            }
            None => {
                return Err(Failure::usage(format!(
                    "the default configuration {name:?} is not in {} (config:default NAME picks another)",
                    file.path.display()
                )));
            }
        },
        None => None,
    };
    let saved_ref = saved.as_ref();
    let mut sources = Vec::new();
    let mut pick = |name: &str,
                    env: &str,
                    flag: &Option<String>,
                    saved: Option<&String>|
     -> (Option<String>, Source) {
        let (value, source) = match (flag, saved) {
            (Some(v), _) => (Some(v.clone()), arg_source(matches, name)),
            (None, Some(v)) => (Some(v.clone()), Source::Saved),
            (None, None) => (None, Source::Default),
        };
        if value.is_some() {
            sources.push(format!("{name} from {}", source.describe(env)));
        }
        (value, source)
    };
    let (org_name, _) = pick(
        "org_name",
        "JOBGRAPH_ORG_NAME",
        &global.org_name,
        saved_ref.and_then(|s| s.org_name.as_ref()),
    );
    let (api, _) = pick(
        "api_base_url",
        "JOBGRAPH_API_BASE_URL",
        &global.api_base_url,
        saved_ref.and_then(|s| s.api_base_url.as_ref()),
    );
    let api_base_url = api.unwrap_or_else(|| DEFAULT_API_BASE_URL.to_owned());
    let (auth, _) = pick(
        "auth_base_url",
        "JOBGRAPH_AUTH_BASE_URL",
        &global.auth_base_url,
        saved_ref.and_then(|s| s.auth_base_url.as_ref()),
    );
    let auth_base_url = auth.unwrap_or_else(|| default_auth_base(&api_base_url));
    let (client_id, _) = pick(
        "client_id",
        "JOBGRAPH_CLIENT_ID",
        &global.client_id,
        saved_ref.and_then(|s| s.client_id.as_ref()),
    );
    if let Some(method) = saved_ref.and_then(|s| s.auth_method.as_deref())
        && !matches!(method, "client-credentials" | "oauth")
    {
        return Err(Failure::usage(format!(
            "configuration {:?}: authMethod {method:?} is not supported (client-credentials or oauth)",
            conf.unwrap_or_default()
        )));
    }
    Ok(Settings {
        conf: conf.filter(|_| saved.is_some()),
        org_name,
        api_base_url,
        auth_base_url,
        client_id,
        auth_cache: saved_ref.and_then(|s| s.auth_cache).unwrap_or(true),
        oauth: saved_ref.and_then(|s| s.auth_method.as_deref()) == Some("oauth"),
        browser: saved_ref.and_then(|s| s.browser).unwrap_or(true),
        sources,
    })
}
