//! A client of the service from the settings of a run: its disk token cache, its `-d` trace,
//! a tokio runtime, and the one-line messages of its errors.

pub(crate) mod browser_login;

use std::sync::Arc;

use jobgraph_sdk::client::{
    Client, ClientError, Credentials, DiskTokenStore, Secret, TokenKey, TokenStore,
};

use crate::context::Context;
use crate::failure::Failure;
use crate::settings::{Settings, home_dir};

/// The public client `jobgraph login` logs in as, unless the configuration names another.
pub const PUBLIC_CLIENT: &str = "jobgraph-cli";

/// The variable that holds the client secret.
pub const SECRET_VAR: &str = "JOBGRAPH_CLIENT_SECRET";

/// A client ready to call the service.
pub struct Session {
    /// The client.
    pub client: Client,
    /// The settings it was built from.
    pub settings: Settings,
    /// The runtime its calls run on (one thread: a command makes a few requests).
    pub runtime: tokio::runtime::Runtime,
}

impl Session {
    /// A client from the run's settings (resolved once: flags, environment, saved
    /// configuration, defaults).
    pub fn open(ctx: &Context) -> Result<Session, Failure> {
        // No client configured: the person logged in with `jobgraph login`, if one did.
        let settings = ctx.settings()?;
        let cached = |client: &str| -> Result<bool, Failure> {
            Ok(settings.auth_cache
                && DiskTokenStore::new(home_dir()?.join("auth"))
                    .load(&TokenKey {
                        client_id: client.into(),
                        auth_base_url: settings.auth_base_url.trim_end_matches('/').to_owned(),
                    })
                    .is_some())
        };
        // `authMethod: oauth` and no secret: a person; not logged in yet, the login comes first.
        let no_secret = std::env::var(SECRET_VAR).map_or(true, |s| s.is_empty());
        if settings.oauth && no_secret {
            let client = settings.client_id.as_deref().unwrap_or(PUBLIC_CLIENT);
            if settings.auth_cache && !cached(client)? {
                eprintln!("Not logged in yet (authMethod oauth): logging in first.");
                browser_login::log_in(!settings.browser, 300, ctx)?;
            }
            return Self::open_with(ctx, Some(PUBLIC_CLIENT));
        }
        let logged_in = settings.client_id.is_none() && cached(PUBLIC_CLIENT)?;
        Self::open_with(ctx, logged_in.then_some(PUBLIC_CLIENT))
    }

    /// [`Session::open`], with `fallback_client` as the client id when none is configured
    /// (`jobgraph login`: the public client `jobgraph-cli`).
    pub fn open_with(ctx: &Context, fallback_client: Option<&str>) -> Result<Session, Failure> {
        let file = ctx.config_file()?;
        let mut settings = ctx.settings()?.clone();
        if settings.client_id.is_none() {
            settings.client_id = fallback_client.map(str::to_owned);
        }
        let debug = ctx.global.debug;
        let trace = |line: &str| {
            if debug {
                eprintln!("debug: {line}");
            }
        };
        match &settings.conf {
            Some(name) => trace(&format!(
                "configuration {name:?} of {}",
                file.path.display()
            )),
            None => trace("no saved configuration"),
        }
        for line in &settings.sources {
            trace(line);
        }
        let Some(client_id) = settings.client_id.clone() else {
            return Err(Failure::usage(
                "no client id: pass --client-id, set JOBGRAPH_CLIENT_ID, save a configuration (jobgraph config:save NAME --client-id ID), or log in as a person (jobgraph login)",
            ));
        };
        let secret = std::env::var(SECRET_VAR).ok().filter(|s| !s.is_empty());
        trace(&format!(
            "client id {client_id:?}; secret {}",
            if secret.is_some() {
                format!("from {SECRET_VAR}")
            } else {
                format!("not given ({SECRET_VAR} unset): cached tokens only")
            }
        ));
        trace(&format!(
            "API {}; tokens from {}/oauth/token",
            settings.api_base_url,
            settings.auth_base_url.trim_end_matches('/')
        ));
        let credentials = Credentials {
            client_id,
            secret: secret.map(Secret::new),
        };
        let mut builder = Client::builder(settings.api_base_url.clone())
            .auth_base_url(settings.auth_base_url.clone())
            .credentials(credentials)
            .user_agent(concat!("jobgraph-cli/", env!("CARGO_PKG_VERSION")));
        if settings.auth_cache {
            let store = DiskTokenStore::new(home_dir()?.join("auth"));
            trace(&format!("token cache {}", store.dir().display()));
            builder = builder.token_store(Arc::new(store));
        } else {
            trace("token cache off (authCache: false)");
        }
        if debug {
            builder = builder.trace(Arc::new(|line: &str| eprintln!("debug: {line}")));
        }
        let client = builder.build().map_err(|e| Failure::usage(e.to_string()))?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| Failure::failed(format!("cannot start the async runtime: {e}")))?;
        Ok(Session {
            client,
            settings,
            runtime,
        })
    }

    /// The one-line failure of a client error.
    pub fn failure(&self, error: ClientError) -> Failure {
        failure(error, &self.settings)
    }
}

/// The one-line failure of a client error: what happened, what was tried, what to do.
pub fn failure(error: ClientError, settings: &Settings) -> Failure {
    let check = || format!("check the client id and secret of {}", settings.describe());
    match error {
        ClientError::Unreachable { url, reason, .. } => Failure::failed(format!(
            "cannot reach the service at {url}: {reason} (is it running? the address comes from --api-base-url / --auth-base-url or the configuration)"
        )),
        ClientError::Timeout {
            method,
            url,
            timeout,
        } => Failure::failed(format!(
            "no answer from {url} within {} s ({method})",
            timeout.as_secs()
        )),
        ClientError::TokenRejected {
            url,
            status: 401,
            message,
        } => Failure::failed(format!(
            "authentication failed at {url}: {message}: {}",
            check()
        )),
        ClientError::TokenRejected {
            url,
            status,
            message,
        } => Failure::failed(format!(
            "token request to {url} failed ({status}): {message}"
        )),
        ClientError::Unauthorized {
            method,
            path,
            message,
        } => Failure::failed(format!(
            "401 Unauthorized on {method} {path} with a new token ({message}): {}",
            check()
        )),
        ClientError::MissingSecret { client_id } => Failure::usage(format!(
            "a new access token is needed for client {client_id:?} and no secret is given: set {SECRET_VAR}, or log in as a person with `jobgraph login`"
        )),
        ClientError::Api {
            status: 404,
            message,
            method,
            path,
            ..
        } => Failure::failed(format!("not found: {message} ({method} {path})")),
        ClientError::Api {
            status: 409,
            message,
            current_version,
            method,
            path,
            ..
        } => Failure::failed(match current_version {
            Some(v) => format!(
                "conflict: the current version is {v}: {message} ({method} {path}); fetch it again and retry"
            ),
            None => format!("conflict: {message} ({method} {path})"),
        }),
        ClientError::Api {
            status: 400,
            message,
            method,
            path,
            ..
        } => Failure::failed(format!("{message} (400 Bad Request, {method} {path})")),
        other => Failure::failed(other.to_string()),
    }
}
