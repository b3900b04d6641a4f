//! The intake log on NATS JetStream (`intake.nats` in `--config`; `docs/intake.md`, "Beyond
//! one machine"): what agents sent to any replica, in one JetStream stream every replica
//! shares, so that a pipeline reads its integration's events whichever replica runs it, and a
//! replica that dies leaves nothing behind on its own disk.
//!
//! - An append publishes the request's events to subject `{prefix}.{integration}` (NDJSON, cut
//!   at line ends into messages the server's `max_payload` takes) and answers once JetStream
//!   acknowledged every message: stored (file storage, `replicas` copies). Each message has a
//!   `Nats-Msg-Id`, so a publish retried within the duplicate window is stored once.
//! - Positions are stream sequences: per subject they grow like the embedded log's. With
//!   `partitions` above 1, an integration's events are on `{prefix}.{integration}.{p}`
//!   ([`super::partition`]); a partitioned run's reader filters its partition's subject, a
//!   whole run's reader all of them (sequences are the stream's, so a position means the same
//!   point on either).
//! - Readers are durable pull consumers, one per job version and source vertex
//!   ([`JetStreamLog::reader`]), made at the run's checkpointed position and acknowledged
//!   (`AckPolicy::All`) at each checkpoint; a replica taking a run over makes it again at the
//!   checkpoint, so what the dead replica read but had not checkpointed is delivered again.
//! - The stream keeps messages (`Limits` retention, `max_bytes` = `intake.maxBufferedBytes`,
//!   `discard: new`: a full stream refuses publishes and the intake answers 429/503); the
//!   service purges each subject up to the slowest running reader's checkpoint, as it trims the
//!   embedded log.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_nats::jetstream::{self, consumer, stream};
use futures_util::StreamExt;

mod reader;

pub use reader::Reader;

use super::{IntakeLogError, StreamInfo};
use crate::intake_config::NatsConfig;

/// How long the stream remembers a `Nats-Msg-Id` to drop a repeated publish.
const DUPLICATE_WINDOW: Duration = Duration::from_secs(120);

/// A reader not used for this long is removed by the server (a job deleted, a replica gone).
const READER_INACTIVE: Duration = Duration::from_secs(3600);

/// The stream's metadata key that records its partition count.
const PARTITIONS: &str = "jobgraph.partitions";

fn partition_metadata(config: &NatsConfig) -> HashMap<String, String> {
    HashMap::from([(PARTITIONS.to_owned(), config.partition_count().to_string())])
}

/// Headers of a message: its event count and when it was taken.
const EVENTS: &str = "Jobgraph-Events";
const RECEIVED: &str = "Jobgraph-Received-Ms";

/// The log on JetStream (cheap to clone).
#[derive(Clone)]
pub struct JetStreamLog {
    inner: Arc<Inner>,
}

struct Inner {
    js: jetstream::Context,
    stream: stream::Stream,
    config: NatsConfig,
    /// The largest message the server takes, less room for headers.
    max_message: usize,
    /// What the last refresh (and this replica's appends since) know of each subject.
    known: Mutex<Known>,
    /// Notified when any replica appended (a core NATS subscription on `{prefix}-appended`).
    appended: Arc<tokio::sync::Notify>,
}

#[derive(Default)]
struct Known {
    streams: HashMap<String, StreamInfo>,
    /// The stream's bytes.
    bytes: u64,
}

impl std::fmt::Debug for JetStreamLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JetStreamLog")
            .field("config", &self.inner.config)
            .finish_non_exhaustive()
    }
}

fn nats_error(what: &str) -> impl Fn(&dyn std::fmt::Display) -> IntakeLogError + '_ {
    move |e| IntakeLogError::Nats {
        message: format!("{what}: {e}"),
    }
}

impl JetStreamLog {
    /// Connects, and makes (or updates) the stream with a budget of `max_bytes`.
    pub async fn connect(config: &NatsConfig, max_bytes: u64) -> Result<Self, IntakeLogError> {
        let options = async_nats::ConnectOptions::new()
            .name("jobgraph")
            .connection_timeout(Duration::from_secs(10));
        let client = tokio::time::timeout(Duration::from_secs(15), options.connect(config.url.as_str()))
            .await
            .map_err(|_| IntakeLogError::Nats {
                message: "no NATS server answered within 15 s at intake.nats.url (is `nats-server -js` running?)".into(),
            })?
            .map_err(|e| nats_error("cannot connect to NATS at intake.nats.url")(&e))?;
        let max_message = (client.server_info().max_payload.max(64 << 10)).saturating_sub(4096);
        let js = jetstream::new(client.clone());
        let wanted = stream::Config {
            name: config.stream.clone(),
            subjects: vec![format!("{}.>", config.subject_prefix)],
            storage: stream::StorageType::File,
            retention: stream::RetentionPolicy::Limits,
            max_bytes: i64::try_from(max_bytes).unwrap_or(i64::MAX),
            discard: stream::DiscardPolicy::New,
            duplicate_window: DUPLICATE_WINDOW,
            num_replicas: config.replicas.max(1),
            allow_direct: true,
            metadata: partition_metadata(config),
            ..Default::default()
        };
        let stream = match js.get_stream(&config.stream).await {
            Ok(mut found) => {
                let info = found
                    .info()
                    .await
                    .map_err(|e| nats_error("cannot read the intake stream")(&e))?;
                let current = info.config.clone();
                let made_with = current
                    .metadata
                    .get(PARTITIONS)
                    .and_then(|p| p.parse::<u32>().ok())
                    .unwrap_or(1);
                // Events are where their partition count put them: another count would read
                // them from the wrong subjects. An empty stream may change it.
                if made_with != config.partition_count() && info.state.messages > 0 {
                    return Err(IntakeLogError::Nats {
                        message: format!(
                            "intake.nats.partitions is {} but the stream {} holds events in {made_with} partition(s): stop the pipelines reading it, let them drain and purge the stream (`nats stream purge {}`), or use a new stream name (intake.nats.stream)",
                            config.partition_count(),
                            config.stream,
                            config.stream
                        ),
                    });
                }
                if current.max_bytes != wanted.max_bytes
                    || !current.allow_direct
                    || made_with != config.partition_count()
                {
                    let mut metadata = current.metadata.clone();
                    metadata.extend(wanted.metadata.clone());
                    js.update_stream(stream::Config {
                        max_bytes: wanted.max_bytes,
                        allow_direct: true,
                        metadata,
                        ..current
                    })
                    .await
                    .map_err(|e| nats_error("cannot update the intake stream")(&e))?;
                }
                found
            }
            Err(_) => js.get_or_create_stream(wanted).await.map_err(|e| {
                nats_error("cannot make the intake stream (is JetStream on: `nats-server -js`?)")(
                    &e,
                )
            })?,
        };
        let appended = Arc::new(tokio::sync::Notify::new());
        let mut ticks = client
            .subscribe(format!("{}-appended", config.subject_prefix))
            .await
            .map_err(|e| nats_error("cannot subscribe to the intake's notices")(&e))?;
        let notify = Arc::clone(&appended);
        tokio::spawn(async move {
            while ticks.next().await.is_some() {
                notify.notify_waiters();
            }
        });
        let log = JetStreamLog {
            inner: Arc::new(Inner {
                js,
                stream,
                config: config.clone(),
                max_message,
                known: Mutex::new(Known::default()),
                appended,
            }),
        };
        log.refresh().await?;
        Ok(log)
    }

    fn subject(&self, stream: &str) -> String {
        format!("{}.{stream}", self.inner.config.subject_prefix)
    }

    /// The partitions of each integration's events (1: none).
    pub fn partitions(&self) -> u32 {
        self.inner.config.partition_count()
    }

    /// The tags an event's partition is a hash of.
    pub fn partition_tags(&self) -> &[String] {
        &self.inner.config.partition_by_tags
    }

    /// The subjects a reader of `stream` reads: an integration's partitions all, when its
    /// events are partitioned and the reader reads it whole.
    fn reader_subject(&self, stream: &str) -> String {
        match super::partition::integration_of(stream) {
            (_, None) if self.partitions() > 1 => format!("{}.*", self.subject(stream)),
            _ => self.subject(stream),
        }
    }

    /// Publishes `ndjson` (`events` events, `batch` names the request) to `stream`; answers
    /// the sequence of its last message once JetStream stored every message.
    pub async fn append(
        &self,
        stream: &str,
        batch: &str,
        ndjson: Vec<u8>,
        events: u32,
    ) -> Result<u64, IntakeLogError> {
        // Not connected: refused now rather than queued by the client, which would send it when
        // the connection is back, after the agent was told to retry (a duplicate).
        if !self.connected() {
            return Err(IntakeLogError::Nats {
                message: "not connected to the NATS server (reconnecting)".into(),
            });
        }
        let subject = self.subject(stream);
        let now = crate::ids::now_ms();
        let chunks = cut(&ndjson, self.inner.max_message);
        let single = chunks.len() == 1;
        let mut acks = Vec::with_capacity(chunks.len());
        for (i, chunk) in chunks.iter().enumerate() {
            let count = if single {
                events as usize
            } else {
                chunk.iter().filter(|b| **b == b'\n').count()
            };
            let mut headers = async_nats::HeaderMap::new();
            headers.insert("Nats-Msg-Id", format!("{batch}-{i}").as_str());
            headers.insert(EVENTS, count.to_string().as_str());
            headers.insert(RECEIVED, now.to_string().as_str());
            let ack = self
                .inner
                .js
                .publish_with_headers(subject.clone(), headers, chunk.to_vec().into())
                .await
                .map_err(|e| publish_error(&e))?;
            acks.push(ack);
        }
        let mut last = 0;
        for ack in acks {
            last = ack.await.map_err(|e| publish_error(&e))?.sequence;
        }
        if let Ok(mut known) = self.inner.known.lock() {
            let info = known
                .streams
                .entry(stream.to_owned())
                .or_insert(StreamInfo {
                    first: last,
                    ..StreamInfo::default()
                });
            info.head = info.head.max(last);
            info.events += u64::from(events);
            info.bytes += ndjson.len() as u64;
            known.bytes += ndjson.len() as u64;
        }
        let client = self.inner.js.client();
        let _ = client
            .publish(
                format!("{}-appended", self.inner.config.subject_prefix),
                Vec::new().into(),
            )
            .await;
        Ok(last)
    }

    /// A reader of `stream` for `name` (a job version's source vertex), after `after`.
    pub async fn reader(
        &self,
        stream: &str,
        name: &str,
        after: Option<u64>,
    ) -> Result<Reader, IntakeLogError> {
        let name = consumer_name(name);
        // Made again at the checkpoint: what a previous owner read past it comes again.
        let _ = self.inner.stream.delete_consumer(&name).await;
        let deliver_policy = match after {
            Some(seq) => consumer::DeliverPolicy::ByStartSequence {
                start_sequence: seq + 1,
            },
            None => consumer::DeliverPolicy::All,
        };
        let consumer = self
            .inner
            .stream
            .create_consumer(consumer::pull::Config {
                durable_name: Some(name.clone()),
                filter_subject: self.reader_subject(stream),
                deliver_policy,
                ack_policy: consumer::AckPolicy::All,
                // A run acknowledges at its checkpoints; never sooner than this is delivered
                // again to the same run (which skips what it read).
                ack_wait: Duration::from_secs(600),
                max_ack_pending: -1,
                inactive_threshold: READER_INACTIVE,
                ..Default::default()
            })
            .await
            .map_err(|e| nats_error(&format!("cannot make the reader {name}"))(&e))?;
        Ok(Reader::new(consumer))
    }

    /// Reads the stream's state again: per subject, its first and last sequence and count.
    pub async fn refresh(&self) -> Result<(), IntakeLogError> {
        let mut info = self
            .inner
            .stream
            .info_with_subjects(format!("{}.>", self.inner.config.subject_prefix))
            .await
            .map_err(|e| nats_error("cannot read the intake stream")(&e))?;
        let mut counts = Vec::new();
        while let Some(item) = info.next().await {
            let (subject, count) =
                item.map_err(|e| nats_error("cannot read the intake stream")(&e))?;
            counts.push((subject, count));
        }
        let mut streams = HashMap::new();
        let prefix = format!("{}.", self.inner.config.subject_prefix);
        for (subject, count) in counts {
            let Some(id) = subject.strip_prefix(&prefix) else {
                continue;
            };
            let first = self
                .inner
                .stream
                .direct_get_next_for_subject(subject.clone(), None)
                .await;
            let last = self
                .inner
                .stream
                .direct_get_last_for_subject(subject.clone())
                .await;
            if let (Ok(first), Ok(last)) = (first, last) {
                streams.insert(
                    id.to_owned(),
                    StreamInfo {
                        first: first.sequence,
                        head: last.sequence,
                        bytes: 0,
                        events: count as u64,
                    },
                );
            }
        }
        let mut stream = self.inner.stream.clone();
        let bytes = stream
            .info()
            .await
            .map_err(|e| nats_error("cannot read the intake stream")(&e))?
            .state
            .bytes;
        if let Ok(mut known) = self.inner.known.lock() {
            let total: u64 = streams.values().map(|s| s.events).sum::<u64>().max(1);
            for info in streams.values_mut() {
                // Per subject, the server counts messages, not bytes: a share of the bytes.
                info.bytes = bytes * info.events / total;
            }
            known.streams = streams;
            known.bytes = bytes;
        }
        Ok(())
    }

    /// What is known of `stream` (messages count as its events here).
    pub fn info(&self, stream: &str) -> StreamInfo {
        self.inner
            .known
            .lock()
            .map(|k| super::info_in(&k.streams, stream))
            .unwrap_or_default()
    }

    /// Every subject and what is known of it.
    pub fn streams(&self) -> Vec<(String, StreamInfo)> {
        self.inner
            .known
            .lock()
            .map(|k| super::by_name(&k.streams))
            .unwrap_or_default()
    }

    /// The stream's bytes (at the last refresh, plus this replica's appends since).
    pub fn buffered_bytes(&self) -> u64 {
        self.inner.known.lock().map(|k| k.bytes).unwrap_or(0)
    }

    /// Deletes the messages of `stream` up to `upto`; answers how many.
    pub async fn trim(&self, stream: &str, upto: u64) -> Result<u64, IntakeLogError> {
        let done = self
            .inner
            .stream
            .purge()
            .filter(self.subject(stream))
            .sequence(upto + 1)
            .await
            .map_err(|e| nats_error("cannot purge the intake stream")(&e))?;
        Ok(done.purged)
    }

    /// The last message of `stream` taken before `cutoff_ms` (a binary search on sequences).
    pub async fn last_taken_before(
        &self,
        stream: &str,
        cutoff_ms: i64,
    ) -> Result<Option<u64>, IntakeLogError> {
        let info = self.info(stream);
        if info.head == 0 {
            return Ok(None);
        }
        let subject = self.subject(stream);
        let taken_at = |seq: u64| {
            let subject = subject.clone();
            async move {
                let message = self
                    .inner
                    .stream
                    .direct_get_next_for_subject(subject, Some(seq))
                    .await
                    .ok()?;
                let at = message
                    .headers
                    .get(RECEIVED)
                    .and_then(|v| v.as_str().parse::<i64>().ok())
                    .unwrap_or(i64::MAX);
                Some((message.sequence, at))
            }
        };
        let (mut low, mut high) = (info.first, info.head);
        let mut found = None;
        while low <= high {
            let mid = low + (high - low) / 2;
            match taken_at(mid).await {
                Some((seq, at)) if at < cutoff_ms => {
                    found = Some(seq);
                    low = seq + 1;
                }
                _ => {
                    if mid == 0 {
                        break;
                    }
                    high = mid - 1;
                }
            }
        }
        Ok(found)
    }

    /// Whether the client is connected to the NATS server now.
    pub fn connected(&self) -> bool {
        self.inner.js.client().connection_state() == async_nats::connection::State::Connected
    }

    /// Resolves after any replica appended.
    pub async fn appended(&self) {
        self.inner.appended.notified().await
    }
}

/// A publish error: a full stream is [`IntakeLogError::Full`].
fn publish_error(e: &dyn std::fmt::Display) -> IntakeLogError {
    let text = e.to_string();
    if text.contains("maximum bytes")
        || text.contains("maximum messages")
        || text.contains("resource limits")
    {
        IntakeLogError::Full
    } else {
        IntakeLogError::Nats {
            message: format!("cannot publish to the intake stream: {text}"),
        }
    }
}

/// A consumer's name from a reader's: letters, digits, `-` and `_` only.
fn consumer_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// `ndjson` cut at line ends into pieces of at most `max` bytes (a longer line is a piece of
/// its own).
fn cut(ndjson: &[u8], max: usize) -> Vec<&[u8]> {
    if ndjson.len() <= max {
        return vec![ndjson];
    }
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut end = 0;
    for (i, b) in ndjson.iter().enumerate() {
        if *b != b'\n' {
            continue;
        }
        if i + 1 - start > max && end > start {
            pieces.push(&ndjson[start..end]);
            start = end;
        }
        end = i + 1;
    }
    if end > start {
        pieces.push(&ndjson[start..end]);
    }
    if end < ndjson.len() {
        pieces.push(&ndjson[end..]);
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ndjson_is_cut_at_line_ends_within_the_size() {
        let text = b"aaa\nbb\ncccc\nd\n";
        let pieces = cut(text, 7);
        assert_eq!(pieces, [&b"aaa\nbb\n"[..], b"cccc\nd\n"]);
        assert_eq!(pieces.concat(), text);
        assert_eq!(cut(b"long line\nx\n", 4), [&b"long line\n"[..], b"x\n"]);
        assert_eq!(cut(text, 100), [&text[..]]);
    }

    #[test]
    fn consumer_names_keep_only_what_nats_takes() {
        assert_eq!(consumer_name("job 1.v2/agents>*"), "job_1_v2_agents__");
    }
}
