//! The embedded intake log (`docs/intake.md`, "Durability"): what agents sent, one stream per
//! integration, kept in one redb file of the data folder (`intake.redb`) until every pipeline
//! that reads the stream has checkpointed past it.
//!
//! - An append is acknowledged once its commit is on disk (redb's `Durability::Immediate`:
//!   fsynced). Appends that arrive together share one commit (group commit, one writer thread),
//!   so the fsync is paid per group, not per request.
//! - Each append is an *entry*: a sequence number per stream (1, 2, …) and the events as NDJSON.
//! - Readers (the runner's agent sources) read entries after a sequence number; their
//!   positions are the runs' checkpoints, so the log keeps no reader state of its own.
//! - [`IntakeLog::trim`] deletes the entries every reader has passed; [`IntakeLog::buffered_bytes`]
//!   is what is kept, which the intake compares with its budget before taking more.
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let dir = tempfile::tempdir().unwrap();
//! let log = jobgraph_server::intake_log::IntakeLog::open(&dir.path().join("intake.redb")).unwrap();
//! let seq = log.append("dd-prod", b"{\"message\":\"a\"}\n".to_vec(), 1).await.unwrap();
//! assert_eq!(seq, 1);
//! let entries = log.read("dd-prod", 0, 100).unwrap();
//! assert_eq!(entries[0].seq, 1);
//! # });
//! ```

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

mod backend;
pub mod jetstream;
pub mod partition;
mod writer;

pub use backend::{Intake, Reader};

use redb::{Database, ReadableDatabase, ReadableTable, TableDefinition};

/// (stream, sequence) → the entry: its event count (4 bytes, little-endian), the time it was
/// taken (ms since the epoch, 8 bytes, little-endian) and its NDJSON.
const ENTRIES: TableDefinition<(&str, u64), &[u8]> = TableDefinition::new("entries");

/// Appends one commit takes at most (beyond, the next commit takes the rest).
const GROUP_BYTES: usize = 32 << 20;

/// Entries one trim deletes at most ([`IntakeLog::trim`] goes on in further commits).
const TRIM_ENTRIES: u64 = 256;

/// What went wrong with the intake log.
#[derive(Debug, thiserror::Error)]
pub enum IntakeLogError {
    /// The file could not be opened.
    #[error(
        "cannot open the intake log {path}: {message} (is another `jobgraph serve` using this data folder?)"
    )]
    Open {
        /// The file.
        path: PathBuf,
        /// redb's words.
        message: String,
    },
    /// A read or a write failed.
    #[error("the intake log {path}: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        message: String,
    },
    /// The writer thread is gone (the service is stopping).
    #[error("the intake log is closed (the service is stopping)")]
    Closed,
    /// The JetStream log failed (`intake.nats`).
    #[error("the intake log on NATS JetStream: {message}")]
    Nats {
        /// What failed, in NATS's words.
        message: String,
    },
    /// The JetStream stream is at its budget (`intake.maxBufferedBytes`).
    #[error("the intake stream is full (intake.maxBufferedBytes)")]
    Full,
}

/// One entry: the events one request brought.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Its sequence number in its stream.
    pub seq: u64,
    /// Its events.
    pub events: u32,
    /// When it was taken (ms since the epoch).
    pub received_ms: i64,
    /// The events, one JSON object per line.
    pub ndjson: Vec<u8>,
}

/// What the log knows of a stream without reading it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StreamInfo {
    /// The first entry kept (`head + 1` when none is).
    pub first: u64,
    /// The last entry written (0: none ever).
    pub head: u64,
    /// The bytes of the entries kept.
    pub bytes: u64,
    /// The events of the entries kept.
    pub events: u64,
}

enum Job {
    Append {
        stream: String,
        payload: Vec<u8>,
        done: tokio::sync::oneshot::Sender<Result<u64, IntakeLogError>>,
    },
    Trim {
        stream: String,
        upto: u64,
        done: tokio::sync::oneshot::Sender<Result<u64, IntakeLogError>>,
    },
}

struct Inner {
    db: Database,
    path: PathBuf,
    streams: Mutex<HashMap<String, StreamInfo>>,
    /// Notified after every commit that appended something.
    appended: tokio::sync::Notify,
}

/// The log (cheap to clone). Its writer thread ends when the last clone is dropped, and
/// the drop waits for it: the file can be opened again at once.
#[derive(Clone)]
pub struct IntakeLog {
    inner: Arc<Inner>,
    writer: Arc<Writer>,
}

struct Writer {
    jobs: Option<mpsc::SyncSender<Job>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Writer {
    fn drop(&mut self) {
        self.jobs = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl std::fmt::Debug for IntakeLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IntakeLog")
            .field("path", &self.inner.path)
            .finish_non_exhaustive()
    }
}

fn io(path: &Path) -> impl Fn(String) -> IntakeLogError + '_ {
    move |message| IntakeLogError::Io {
        path: path.to_owned(),
        message,
    }
}

impl IntakeLog {
    /// Opens (or creates) the log at `path` and starts its writer thread.
    pub fn open(path: &Path) -> Result<IntakeLog, IntakeLogError> {
        let db = Database::create(path).map_err(|e| IntakeLogError::Open {
            path: path.to_owned(),
            message: e.to_string(),
        })?;
        let streams = scan(&db).map_err(io(path))?;
        let inner = Arc::new(Inner {
            db,
            path: path.to_owned(),
            streams: Mutex::new(streams),
            appended: tokio::sync::Notify::new(),
        });
        let (jobs, queue) = mpsc::sync_channel(4096);
        let writer = Arc::clone(&inner);
        let thread = std::thread::Builder::new()
            .name("intake-log".into())
            .spawn(move || writer::write_loop(&writer, &queue))
            .map_err(|e| io(path)(format!("cannot start its writer thread: {e}")))?;
        Ok(IntakeLog {
            inner,
            writer: Arc::new(Writer {
                jobs: Some(jobs),
                thread: Some(thread),
            }),
        })
    }

    /// Appends `ndjson` (`events` events) to `stream`; answers its sequence number once it is
    /// on disk.
    pub async fn append(
        &self,
        stream: &str,
        ndjson: Vec<u8>,
        events: u32,
    ) -> Result<u64, IntakeLogError> {
        let mut payload = Vec::with_capacity(ndjson.len() + HEADER);
        payload.extend_from_slice(&events.to_le_bytes());
        payload.extend_from_slice(&crate::ids::now_ms().to_le_bytes());
        payload.extend_from_slice(&ndjson);
        let (done, answer) = tokio::sync::oneshot::channel();
        self.send(Job::Append {
            stream: stream.to_owned(),
            payload,
            done,
        })
        .await?;
        answer.await.map_err(|_| IntakeLogError::Closed)?
    }

    /// Deletes the entries of `stream` up to `upto` (every reader is past them); answers the
    /// entries deleted.
    /// Deletes in commits of at most 256 entries, so that appends are not held up.
    pub async fn trim(&self, stream: &str, upto: u64) -> Result<u64, IntakeLogError> {
        let mut deleted = 0;
        loop {
            let (done, answer) = tokio::sync::oneshot::channel();
            self.send(Job::Trim {
                stream: stream.to_owned(),
                upto,
                done,
            })
            .await?;
            let n = answer.await.map_err(|_| IntakeLogError::Closed)??;
            deleted += n;
            if n < TRIM_ENTRIES {
                return Ok(deleted);
            }
        }
    }

    async fn send(&self, job: Job) -> Result<(), IntakeLogError> {
        let Some(jobs) = &self.writer.jobs else {
            return Err(IntakeLogError::Closed);
        };
        match jobs.try_send(job) {
            Ok(()) => Ok(()),
            Err(mpsc::TrySendError::Disconnected(_)) => Err(IntakeLogError::Closed),
            Err(mpsc::TrySendError::Full(job)) => {
                // The writer is behind: wait on the blocking pool rather than a worker.
                let jobs = jobs.clone();
                tokio::task::spawn_blocking(move || jobs.send(job))
                    .await
                    .map_err(|_| IntakeLogError::Closed)?
                    .map_err(|_| IntakeLogError::Closed)
            }
        }
    }

    /// The entries of `stream` after `after`, in order, as many as hold at most `max_events`
    /// events (but at least one entry when there is one, whatever its size).
    pub fn read(
        &self,
        stream: &str,
        after: u64,
        max_events: usize,
    ) -> Result<Vec<Entry>, IntakeLogError> {
        let path = &self.inner.path;
        let fail = |e: &dyn std::fmt::Display| io(path)(format!("reading {stream}: {e}"));
        let tx = self.inner.db.begin_read().map_err(|e| fail(&e))?;
        let table = match tx.open_table(ENTRIES) {
            Ok(table) => table,
            Err(redb::TableError::TableDoesNotExist(_)) => return Ok(Vec::new()),
            Err(e) => return Err(fail(&e)),
        };
        let mut out = Vec::new();
        let mut taken = 0usize;
        let Some(start) = after.checked_add(1) else {
            return Ok(out);
        };
        for item in table
            .range((stream, start)..=(stream, u64::MAX))
            .map_err(|e| fail(&e))?
        {
            let (key, value) = item.map_err(|e| fail(&e))?;
            let bytes = value.value();
            let (count, received_ms, ndjson) = split_entry(bytes);
            if !out.is_empty() && taken + count as usize > max_events {
                break;
            }
            out.push(Entry {
                seq: key.value().1,
                events: count,
                received_ms,
                ndjson: ndjson.to_vec(),
            });
            taken += count as usize;
            if taken >= max_events {
                break;
            }
        }
        Ok(out)
    }

    /// The last entry of `stream` taken before `cutoff_ms` (`None`: none is kept).
    pub fn last_taken_before(
        &self,
        stream: &str,
        cutoff_ms: i64,
    ) -> Result<Option<u64>, IntakeLogError> {
        let path = &self.inner.path;
        let fail = |e: &dyn std::fmt::Display| io(path)(format!("reading {stream}: {e}"));
        let tx = self.inner.db.begin_read().map_err(|e| fail(&e))?;
        let table = match tx.open_table(ENTRIES) {
            Ok(table) => table,
            Err(redb::TableError::TableDoesNotExist(_)) => return Ok(None),
            Err(e) => return Err(fail(&e)),
        };
        let mut last = None;
        for item in table
            .range((stream, 0)..=(stream, u64::MAX))
            .map_err(|e| fail(&e))?
        {
            let (key, value) = item.map_err(|e| fail(&e))?;
            if split_entry(value.value()).1 >= cutoff_ms {
                break;
            }
            last = Some(key.value().1);
        }
        Ok(last)
    }

    /// What is known of `stream`.
    pub fn info(&self, stream: &str) -> StreamInfo {
        self.inner
            .streams
            .lock()
            .map(|s| info_in(&s, stream))
            .unwrap_or_default()
    }

    /// Every stream and what is known of it.
    pub fn streams(&self) -> Vec<(String, StreamInfo)> {
        self.inner
            .streams
            .lock()
            .map(|s| by_name(&s))
            .unwrap_or_default()
    }

    /// The bytes of every stream's entries kept.
    pub fn buffered_bytes(&self) -> u64 {
        self.inner
            .streams
            .lock()
            .map(|s| s.values().map(|i| i.bytes).sum())
            .unwrap_or(0)
    }

    /// Resolves after the next commit that appends anything.
    pub async fn appended(&self) {
        self.inner.appended.notified().await
    }
}

/// What `streams` knows of `stream` (one never written: `first` 1, nothing kept).
fn info_in(streams: &HashMap<String, StreamInfo>, stream: &str) -> StreamInfo {
    if let Some(info) = streams.get(stream) {
        return *info;
    }
    // An integration whose events are partitioned (JetStream): its partitions together.
    let mut parts = streams
        .iter()
        .filter(|(name, _)| matches!(partition::integration_of(name), (i, Some(_)) if i == stream))
        .map(|(_, info)| *info)
        .peekable();
    if parts.peek().is_none() {
        return StreamInfo {
            first: 1,
            ..StreamInfo::default()
        };
    }
    parts.fold(
        StreamInfo {
            first: u64::MAX,
            ..StreamInfo::default()
        },
        |all, p| StreamInfo {
            first: all.first.min(p.first),
            head: all.head.max(p.head),
            bytes: all.bytes + p.bytes,
            events: all.events + p.events,
        },
    )
}

/// Every stream of `streams`, by name.
fn by_name(streams: &HashMap<String, StreamInfo>) -> Vec<(String, StreamInfo)> {
    let mut out: Vec<_> = streams.iter().map(|(k, v)| (k.clone(), *v)).collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// An entry's header: its event count and the time it was taken.
const HEADER: usize = 12;

fn split_entry(bytes: &[u8]) -> (u32, i64, &[u8]) {
    let Some((count, rest)) = bytes.split_first_chunk::<4>() else {
        return (0, 0, &[]);
    };
    let Some((time, rest)) = rest.split_first_chunk::<8>() else {
        return (u32::from_le_bytes(*count), 0, &[]);
    };
    (u32::from_le_bytes(*count), i64::from_le_bytes(*time), rest)
}

/// What the file holds, stream by stream (read once at open).
fn scan(db: &Database) -> Result<HashMap<String, StreamInfo>, String> {
    let mut streams: HashMap<String, StreamInfo> = HashMap::new();
    let tx = db.begin_read().map_err(|e| e.to_string())?;
    let table = match tx.open_table(ENTRIES) {
        Ok(table) => table,
        Err(redb::TableError::TableDoesNotExist(_)) => return Ok(streams),
        Err(e) => return Err(e.to_string()),
    };
    for item in table.iter().map_err(|e| e.to_string())? {
        let (key, value) = item.map_err(|e| e.to_string())?;
        let (stream, seq) = key.value();
        let bytes = value.value();
        let info = streams.entry(stream.to_owned()).or_insert(StreamInfo {
            first: seq,
            ..StreamInfo::default()
        });
        info.head = info.head.max(seq);
        info.bytes += bytes.len() as u64;
        info.events += u64::from(split_entry(bytes).0);
    }
    Ok(streams)
}

#[cfg(test)]
mod tests;
