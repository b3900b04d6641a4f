//! `jobgraph serve`: open the database, store the clients, start the sandbox pool, listen,
//! and stop gracefully on SIGINT or SIGTERM.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use crate::config::{ConfigError, ServeOptions, Settings};
use crate::guards::secrets::{hash_secret, verify_secret};
use crate::ids::random_token;
use crate::listen;
use crate::routes::router;
use crate::state::AppState;
use crate::store::{ClientRecord, SqliteStore, Store};
#[cfg(feature = "postgres")]
use crate::store::{PostgresOptions, PostgresStore};
use jobgraph_sdk::{ProcessConfig, ProcessSandbox};

/// Why the service could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// Bad settings.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// Anything else, said in words.
    #[error("{0}")]
    Failed(String),
}

pub(crate) fn failed(what: &str) -> impl Fn(&dyn std::fmt::Display) -> ServeError + '_ {
    move |e| ServeError::Failed(format!("{what}: {e}"))
}

/// The database file in `dir`, created owner-only (the folder too).
fn database_path(dir: &Path) -> Result<std::path::PathBuf, ServeError> {
    private_file(dir, "jobgraph.db")
}

/// `dir/name`, the folder made (owner only) and the file too (owner only) when missing.
fn private_file(dir: &Path, name: &str) -> Result<std::path::PathBuf, ServeError> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder
        .create(dir)
        .map_err(|e| failed(&format!("cannot create {}", dir.display()))(&e))?;
    let path = dir.join(name);
    let mut options = std::fs::OpenOptions::new();
    options.create(true).append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options
        .open(&path)
        .map_err(|e| failed(&format!("cannot create {}", path.display()))(&e))?;
    Ok(path)
}

/// The Argon2id hash of `secret`, computed on the blocking pool.
pub(crate) async fn hashed(secret: &str) -> Result<String, ServeError> {
    let secret = secret.to_owned();
    tokio::task::spawn_blocking(move || hash_secret(&secret))
        .await
        .map_err(|e| failed("hashing")(&e))?
        .map_err(|e| failed("hashing")(&e))
}

/// Stores the people of `login.users` (their passwords hashed): a user given again gets the
/// new password and role.
async fn bootstrap_users(store: &dyn Store, settings: &Settings) -> Result<(), ServeError> {
    let users = &settings.service.login.users;
    for user in users {
        let stored = store
            .user(user.organization.clone(), user.name.clone())
            .await
            .map_err(|e| failed("cannot read the users")(&e))?;
        if let Some(stored) = &stored {
            let (password, hash) = (user.password.clone(), stored.secret_hash.clone());
            let same = tokio::task::spawn_blocking(move || verify_secret(&password, &hash))
                .await
                .map_err(|e| failed("hashing")(&e))?;
            if same && stored.grants == grants_of(&user.role, &user.teams) {
                continue;
            }
        }
        store
            .put_user(crate::store::UserRecord {
                organization: user.organization.clone(),
                name: user.name.clone(),
                secret_hash: hashed(&user.password).await?,
                grants: grants_of(&user.role, &user.teams),
            })
            .await
            .map_err(|e| failed("cannot store a user")(&e))?;
    }
    if !users.is_empty() {
        let _ = writeln!(
            std::io::stdout().lock(),
            "{} user(s) may log in (login.users)",
            users.len()
        );
    }
    Ok(())
}

/// Stores the configured clients; with none configured and none stored, generates one for
/// organization `default` and prints it (once: only its hash is kept).
///
/// Configured clients are authoritative when any are given (docs/api.md, "Credential
/// lifecycle and revocation"): a stored client whose secret or organization changed loses
/// every token issued before, and a stored client no longer configured is removed with its
/// tokens. Each such change is one line on stdout.
async fn bootstrap_clients(store: &dyn Store, settings: &Settings) -> Result<(), ServeError> {
    let mut out = std::io::stdout().lock();
    let read = |e: &dyn std::fmt::Display| failed("cannot read the clients")(e);
    let write = |e: &dyn std::fmt::Display| failed("cannot store a client")(e);
    for (i, client) in settings.clients.iter().enumerate() {
        // A client given twice (the file, then `--client`): the last one counts.
        if settings.clients[i + 1..].iter().any(|c| c.id == client.id) {
            continue;
        }
        let stored = store
            .client(client.id.clone())
            .await
            .map_err(|e| read(&e))?;
        if let Some(stored) = &stored {
            let (secret, hash) = (client.secret.clone(), stored.secret_hash.clone());
            let same_secret = tokio::task::spawn_blocking(move || verify_secret(&secret, &hash))
                .await
                .map_err(|e| failed("hashing")(&e))?;
            if same_secret && stored.organization == client.organization {
                if stored.grants != grants_of(&client.role, &client.teams) {
                    // New roles apply to its tokens within a recheck of the token cache.
                    store
                        .put_client(ClientRecord {
                            grants: grants_of(&client.role, &client.teams),
                            ..stored.clone()
                        })
                        .await
                        .map_err(|e| write(&e))?;
                    let _ = writeln!(
                        out,
                        "client {:?}: its roles are now {} {:?}",
                        client.id, client.role, client.teams
                    );
                }
                continue;
            }
            let revoked = store
                .delete_client_tokens(client.id.clone())
                .await
                .map_err(|e| write(&e))?;
            let _ = writeln!(
                out,
                "client {:?}: its secret or organization changed; {revoked} token(s) issued before revoked",
                client.id
            );
        }
        store
            .put_client(ClientRecord {
                client_id: client.id.clone(),
                organization: client.organization.clone(),
                secret_hash: hashed(&client.secret).await?,
                grants: grants_of(&client.role, &client.teams),
            })
            .await
            .map_err(|e| write(&e))?;
    }
    if !settings.clients.is_empty() {
        let ids = store.client_ids().await.map_err(|e| read(&e))?;
        for id in ids {
            if settings.clients.iter().any(|c| c.id == id) {
                continue;
            }
            let revoked = store
                .delete_client(id.clone())
                .await
                .map_err(|e| write(&e))?;
            let _ = writeln!(
                out,
                "client {id:?} is no longer configured: removed, with its {revoked} token(s)"
            );
        }
    }
    let stored = store.client_count().await.map_err(|e| read(&e))?;
    if settings.clients.is_empty() && stored == 0 {
        let random = |n| random_token(n).map_err(|e| failed("no random source")(&e));
        let id = format!("client-{}", random(6)?);
        let secret = random(24)?;
        store
            .put_client(ClientRecord {
                client_id: id.clone(),
                organization: "default".into(),
                secret_hash: hashed(&secret).await?,
                grants: crate::store::Grants::role("Admin"),
            })
            .await
            .map_err(|e| write(&e))?;
        let _ = writeln!(
            out,
            "generated a client for organization \"default\" (shown once, stored hashed):\n{id}:{secret}"
        );
    } else {
        let _ = writeln!(out, "{stored} API client(s) configured");
    }
    Ok(())
}

/// The roles of a configured client or user, as the store keeps them.
fn grants_of(
    role: &str,
    teams: &std::collections::BTreeMap<String, String>,
) -> crate::store::Grants {
    crate::store::Grants {
        role: role.to_owned(),
        teams: teams.clone(),
    }
}

async fn shutdown_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => {
                tokio::select! {
                    _ = interrupt => {},
                    _ = terminate.recv() => {},
                }
            }
            Err(_) => {
                let _ = interrupt.await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = interrupt.await;
    }
}

/// The store the settings ask for: PostgreSQL with `--database`, else SQLite in `--data`.
/// Returns it with the line that says where the data is.
pub(crate) async fn open_store(
    settings: &Settings,
) -> Result<(Arc<dyn Store>, String), ServeError> {
    if let Some(database) = &settings.database {
        #[cfg(feature = "postgres")]
        {
            let mut options = PostgresOptions::new(database.url.0.clone());
            options.pool_size = database.pool_size;
            options.timeout = std::time::Duration::from_millis(database.timeout_ms);
            let store = PostgresStore::connect(&options)
                .await
                .map_err(|e| failed(&format!("cannot use the database {}", database.url))(&e))?;
            return Ok((Arc::new(store), format!("database: {}", database.url)));
        }
        #[cfg(not(feature = "postgres"))]
        return Err(ServeError::Failed(format!(
            "cannot use the database {}: this build has no PostgreSQL support (cargo feature `postgres`)",
            database.url
        )));
    }
    let path = database_path(&settings.data)?;
    let readers = std::thread::available_parallelism().map_or(2, usize::from) * 2;
    let store =
        SqliteStore::open_with(&path, settings.synchronous, readers, settings.sqlite_access)
            .map_err(|e| failed(&format!("{}", path.display()))(&e))?;
    Ok((Arc::new(store), format!("data: {}", path.display())))
}

async fn run(settings: Settings) -> Result<(), ServeError> {
    let (store, location) = open_store(&settings).await?;
    bootstrap_clients(store.as_ref(), &settings).await?;
    bootstrap_users(store.as_ref(), &settings).await?;
    let mut sandbox = match &settings.sandbox_worker {
        Some(config) => config.clone(),
        None => {
            let mut config = ProcessConfig::current_exe()
                .map_err(|e| failed("cannot find this program for the sandbox's workers")(&e))?;
            if let Some(workers) = settings.workers {
                config.workers = workers;
            }
            if let Some(kept) = settings.kept_workers {
                config.kept_workers = kept;
            }
            config
        }
    };
    sandbox.workers = sandbox.workers.max(1);
    let sandbox = Arc::new(ProcessSandbox::start(sandbox));
    let lake = settings
        .service
        .lake
        .open(&settings.data)
        .map_err(|e| failed("cannot open the data lake")(&e))?;
    let lake_location = format!("lake: {}", lake.describe());
    // The data folder holds the intake log even with PostgreSQL (docs/deploy.md), unless it
    // is on NATS JetStream (`intake.nats`).
    let intake = match &settings.service.intake.nats {
        Some(nats) => crate::intake_log::Intake::JetStream(
            crate::intake_log::jetstream::JetStreamLog::connect(
                nats,
                settings.service.intake.max_buffered_bytes,
            )
            .await
            .map_err(|e| failed("cannot open the intake log")(&e))?,
        ),
        None => {
            let intake_path = private_file(&settings.data, "intake.redb")?;
            crate::intake_log::Intake::Local(
                crate::intake_log::IntakeLog::open(&intake_path)
                    .map_err(|e| failed("cannot open the intake log")(&e))?,
            )
        }
    };
    let intake_location = intake.describe();
    let state = AppState::new(store, sandbox, settings.service.clone())
        .with_lake(lake)
        .with_intake(intake);
    crate::lake::gc::start(state.clone());
    crate::runner::start(state.clone());
    let descriptors = listen::raise_descriptor_limit();
    let connections = settings.service.connections.clone();
    let listener = listen::bind(settings.addr, &connections)
        .map_err(|e| failed(&format!("cannot listen on {}", settings.addr))(&e))?;
    let addr = listener
        .local_addr()
        .map_err(|e| failed("cannot read the listening address")(&e))?;
    {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{location}");
        let _ = writeln!(out, "{lake_location}");
        let _ = writeln!(out, "{intake_location}");
        let _ = writeln!(
            out,
            "listening on http://{addr} (also under http://{addr}/api)"
        );
        let _ = writeln!(out, "ready");
        let _ = out.flush();
    }
    // The peer's address reaches the handlers (`ConnectInfo`): the token endpoint's budget
    // per address.
    listen::serve(
        listener,
        router(state),
        &connections,
        descriptors,
        shutdown_signal(),
    )
    .await;
    Ok(())
}

/// Log lines go to stderr in batches of whole lines ([`crate::log_writer`]).
fn log_to_stderr() {
    let _ = tracing_subscriber::fmt()
        .with_writer(crate::log_writer::StderrBatches)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_max_level(tracing::Level::INFO)
        .try_init();
}

/// Runs `jobgraph serve` until SIGINT or SIGTERM: builds the tokio runtime, logs one line per
/// request to stderr.
pub fn serve(options: &ServeOptions) -> Result<(), ServeError> {
    let settings = options.settings()?;
    log_to_stderr();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("jobgraph-serve")
        .on_thread_park(crate::log_writer::flush_on_park)
        .build()
        .map_err(|e| failed("cannot start the runtime")(&e))?;
    let served = runtime.block_on(run(settings));
    // Every log line is written before `stopped` says so.
    runtime.shutdown_timeout(std::time::Duration::from_secs(5));
    crate::log_writer::flush();
    served?;
    let _ = writeln!(std::io::stdout(), "stopped");
    Ok(())
}
