//! [`SqliteStore`]: the [`Store`](super::Store) on an embedded SQLite database (WAL journal).
//!
//! One writer connection (writes are serialized by SQLite anyway; each is one `BEGIN
//! IMMEDIATE` transaction) and a few reader connections that read concurrently with it under
//! WAL. A read of a few rows by key runs on the async worker when a reader is free; every
//! other call runs on tokio's blocking pool.
//!
//! By default the database belongs to one process at a time ([`Access`]): a second process
//! that opens it gets [`OpenError::InUse`]. Inspect it with `sqlite3` once the service has
//! stopped, or open it [`Access::Shared`] (`sqliteAccess: "shared"` in the settings file).

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, TryLockError};

use rusqlite::{Connection, OpenFlags, TransactionBehavior};

mod migrate;

use super::schema::MigrationError;
use super::{StoreError, StoreFuture};
use migrate::migrate;

/// When SQLite syncs the WAL to disk (`PRAGMA synchronous`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Synchronous {
    /// At every commit: an acknowledged write survives a crash of the process and of the
    /// machine (power loss). The default.
    #[default]
    Full,
    /// At checkpoints: an acknowledged write survives a crash of the process (`kill -9`), and
    /// the last commits may be lost on power loss. Faster writes.
    Normal,
}

/// Whether other processes may open the database while the store has it open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Access {
    /// This process alone (SQLite's `unix-excl` VFS): a second `jobgraph serve` on the same
    /// data folder is refused ([`OpenError::InUse`]), and reads lock nothing but memory. The
    /// default.
    #[default]
    Exclusive,
    /// Other processes too (`sqlite3` on the live file, for example): every read takes a lock
    /// on the file and on the WAL index, with system calls (~8 % of a template read's time).
    Shared,
}

/// The SQLite [`Store`](super::Store).
#[derive(Clone)]
pub struct SqliteStore {
    inner: Arc<Inner>,
}

struct Inner {
    access: Access,
    writer: Mutex<Connection>,
    readers: Vec<Mutex<Connection>>,
    next_reader: AtomicUsize,
}

impl std::fmt::Debug for SqliteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteStore")
            .field("readers", &self.inner.readers.len())
            .finish_non_exhaustive()
    }
}

/// Why the database could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// SQLite refused.
    #[error("cannot open the database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// Another process has the database open.
    #[error(
        "the database is in use by another process (another `jobgraph serve` on the same data folder?): a data folder belongs to one process at a time; stop the other one, or give this one another `--data` folder"
    )]
    InUse,
    /// The schema could not be brought up to date.
    #[error("cannot migrate the database: {0}")]
    Migration(#[from] MigrationError),
}

fn backend(error: impl std::fmt::Display) -> StoreError {
    StoreError::Backend(error.to_string())
}

impl Inner {
    /// A reader connection no other request holds, if there is one (round robin from a
    /// rotating start, so readers wear evenly), and the rotating start.
    fn try_reader(&self) -> (Option<MutexGuard<'_, Connection>>, usize) {
        let count = self.readers.len();
        let start = self.next_reader.fetch_add(1, Ordering::Relaxed);
        for offset in 0..count {
            match self.readers[(start + offset) % count].try_lock() {
                Ok(reader) => return (Some(reader), start),
                Err(TryLockError::Poisoned(poisoned)) => {
                    return (Some(poisoned.into_inner()), start);
                }
                Err(TryLockError::WouldBlock) => {}
            }
        }
        (None, start)
    }

    /// A free reader connection, if there is one now.
    fn try_free_reader(&self) -> Option<MutexGuard<'_, Connection>> {
        self.try_reader().0
    }

    /// A reader connection no other request holds, if there is one; else waits for the next
    /// in turn. Waiting on a busy reader while another is free made the tail latency of reads.
    fn free_reader(&self) -> MutexGuard<'_, Connection> {
        match self.try_reader() {
            (Some(reader), _) => reader,
            (None, start) => self.readers[start % self.readers.len()]
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        }
    }
}

/// The SQLite VFS of [`Access::Exclusive`]: `unix-excl`, which takes an exclusive
/// lock on the database file for the process once, so that no other process can open it,
/// and keeps the WAL index in the process's memory. The connections of the process then lock
/// each other in memory: a read takes no `fcntl` lock on the file or the WAL index (those
/// system calls, and the mutexes around them, were ~8 % of a template read's time under
/// load, seen with `perf`). The readers are opened read-write (a read-only connection still
/// locks the file per read) with `PRAGMA query_only`.
const EXCLUSIVE: &std::ffi::CStr = c"unix-excl";

/// Turns on SQLite's query planner stability guarantee: plans never depend on the values bound
/// to a statement. Without it (the bundled library has STAT4) a cached statement whose plan
/// could depend on a parameter is expired when its bindings are cleared, and every read parsed
/// and planned its SQL again (~15 % of a template read's CPU time, seen with `perf`).
fn stable_plans(db: &Connection) -> rusqlite::Result<()> {
    db.set_db_config(
        rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG,
        true,
    )?;
    Ok(())
}

impl SqliteStore {
    /// Opens (creating it if needed) the database file at `path` for this process alone
    /// ([`Access::Exclusive`]), applies the migrations, and opens `readers` reader connections.
    pub fn open(path: &Path, synchronous: Synchronous, readers: usize) -> Result<Self, OpenError> {
        Self::open_with(path, synchronous, readers, Access::Exclusive)
    }

    /// [`SqliteStore::open`] with the choice of [`Access`].
    pub fn open_with(
        path: &Path,
        synchronous: Synchronous,
        readers: usize,
        access: Access,
    ) -> Result<Self, OpenError> {
        let vfs = match access {
            Access::Exclusive => EXCLUSIVE,
            Access::Shared => c"unix",
        };
        let mut writer = Connection::open_with_flags_and_vfs(path, OpenFlags::default(), vfs)?;
        writer.busy_timeout(std::time::Duration::ZERO)?;
        // The first statement locks the file: another process's exclusive lock, or ours when
        // another process has it open, fails it at once (no busy timeout is set yet).
        writer
            .pragma_update(None, "journal_mode", "WAL")
            .map_err(|e| match e.sqlite_error_code() {
                Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => {
                    OpenError::InUse
                }
                _ => OpenError::Sqlite(e),
            })?;
        let sync = match synchronous {
            Synchronous::Full => "FULL",
            Synchronous::Normal => "NORMAL",
        };
        writer.pragma_update(None, "synchronous", sync)?;
        writer.pragma_update(None, "foreign_keys", "ON")?;
        writer.busy_timeout(std::time::Duration::from_secs(10))?;
        stable_plans(&writer)?;
        migrate(&mut writer)?;
        let readers = (0..readers.max(1))
            .map(|_| {
                // Read-write with `query_only` when exclusive: a read-only connection would still
                // lock the file per read.
                let mode = match access {
                    Access::Exclusive => OpenFlags::SQLITE_OPEN_READ_WRITE,
                    Access::Shared => OpenFlags::SQLITE_OPEN_READ_ONLY,
                };
                let reader = Connection::open_with_flags_and_vfs(
                    path,
                    mode | OpenFlags::SQLITE_OPEN_NO_MUTEX,
                    vfs,
                )?;
                reader.pragma_update(None, "query_only", true)?;
                reader.busy_timeout(std::time::Duration::from_secs(10))?;
                stable_plans(&reader)?;
                reader.set_prepared_statement_cache_capacity(64);
                Ok(Mutex::new(reader))
            })
            .collect::<Result<Vec<_>, rusqlite::Error>>()?;
        Ok(SqliteStore {
            inner: Arc::new(Inner {
                access,
                writer: Mutex::new(writer),
                readers,
                next_reader: AtomicUsize::new(0),
            }),
        })
    }

    /// Whether the database was opened [`Access::Exclusive`].
    pub fn exclusive(&self) -> bool {
        self.inner.access == Access::Exclusive
    }

    /// Runs `f` on a reader connection, on the blocking pool.
    pub(super) fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> StoreFuture<'_, T> {
        let inner = Arc::clone(&self.inner);
        Box::pin(async move {
            tokio::task::spawn_blocking(move || {
                let reader = inner.free_reader();
                f(&reader)
            })
            .await
            .map_err(backend)?
        })
    }

    /// Runs `f`, a read of a few rows by key, on a reader connection: right here on the async
    /// worker when a reader is free (such a read takes microseconds, less than the hand-off
    /// to the blocking pool and back, which was half of a template read's CPU time under load,
    /// seen with `perf`), else on the blocking pool as [`SqliteStore::read`]. Listings and
    /// scans stay on the blocking pool.
    pub(super) fn read_point<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> StoreFuture<'_, T> {
        if let Some(reader) = self.inner.try_free_reader() {
            let value = f(&reader);
            drop(reader);
            return Box::pin(std::future::ready(value));
        }
        self.read(f)
    }

    /// Runs `f` in one `BEGIN IMMEDIATE` transaction on the writer, on the blocking pool;
    /// commits when it succeeds.
    pub(super) fn write<T: Send + 'static>(
        &self,
        f: impl FnOnce(&rusqlite::Transaction<'_>) -> Result<T, StoreError> + Send + 'static,
    ) -> StoreFuture<'_, T> {
        let inner = Arc::clone(&self.inner);
        Box::pin(async move {
            tokio::task::spawn_blocking(move || {
                let mut writer = inner.writer.lock().unwrap_or_else(PoisonError::into_inner);
                let tx = writer.transaction_with_behavior(TransactionBehavior::Immediate)?;
                let value = f(&tx)?;
                tx.commit()?;
                Ok(value)
            })
            .await
            .map_err(backend)?
        })
    }
}
