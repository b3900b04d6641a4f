//! The intake log the service runs with: the embedded one (one machine, the default) or the
//! one on NATS JetStream (`intake.nats`, shared by replicas). The intake handlers, the agent
//! sources and the trimming see only this.

use super::jetstream::{self, JetStreamLog};
use super::{Entry, IntakeLog, IntakeLogError, StreamInfo};

/// The service's intake log (cheap to clone).
#[derive(Debug, Clone)]
pub enum Intake {
    /// `intake.redb` in the data folder.
    Local(IntakeLog),
    /// A JetStream stream.
    JetStream(JetStreamLog),
}

impl Intake {
    /// Appends a request's events (`batch` names it) to `stream`; answers once they are
    /// durable.
    pub async fn append(
        &self,
        stream: &str,
        batch: &str,
        ndjson: Vec<u8>,
        events: u32,
    ) -> Result<u64, IntakeLogError> {
        match self {
            Intake::Local(log) => log.append(stream, ndjson, events).await,
            Intake::JetStream(log) => log.append(stream, batch, ndjson, events).await,
        }
    }

    /// The partitions of each integration's events: 1 on the embedded log (one machine runs
    /// a pipeline whole), `intake.nats.partitions` on JetStream.
    pub fn partitions(&self) -> u32 {
        match self {
            Intake::Local(_) => 1,
            Intake::JetStream(log) => log.partitions(),
        }
    }

    /// The tags an event's partition is a hash of (none with one partition).
    pub fn partition_tags(&self) -> &[String] {
        match self {
            Intake::Local(_) => &[],
            Intake::JetStream(log) => log.partition_tags(),
        }
    }

    /// What is known of `stream` (an integration's partitions together when it names the
    /// integration).
    pub fn info(&self, stream: &str) -> StreamInfo {
        match self {
            Intake::Local(log) => log.info(stream),
            Intake::JetStream(log) => log.info(stream),
        }
    }

    /// Every stream and what is known of it.
    pub fn streams(&self) -> Vec<(String, StreamInfo)> {
        match self {
            Intake::Local(log) => log.streams(),
            Intake::JetStream(log) => log.streams(),
        }
    }

    /// The bytes kept, which the intake compares with its budget.
    pub fn buffered_bytes(&self) -> u64 {
        match self {
            Intake::Local(log) => log.buffered_bytes(),
            Intake::JetStream(log) => log.buffered_bytes(),
        }
    }

    /// Reads what is known of the streams again (JetStream: other replicas append too).
    pub async fn refresh(&self) -> Result<(), IntakeLogError> {
        match self {
            Intake::Local(_) => Ok(()),
            Intake::JetStream(log) => log.refresh().await,
        }
    }

    /// Deletes the entries of `stream` up to `upto`.
    pub async fn trim(&self, stream: &str, upto: u64) -> Result<u64, IntakeLogError> {
        match self {
            Intake::Local(log) => log.trim(stream, upto).await,
            Intake::JetStream(log) => log.trim(stream, upto).await,
        }
    }

    /// The last entry of `stream` taken before `cutoff_ms`.
    pub async fn last_taken_before(
        &self,
        stream: &str,
        cutoff_ms: i64,
    ) -> Result<Option<u64>, IntakeLogError> {
        match self {
            Intake::Local(log) => log.last_taken_before(stream, cutoff_ms),
            Intake::JetStream(log) => log.last_taken_before(stream, cutoff_ms).await,
        }
    }

    /// Resolves after the next append (JetStream: on any replica).
    pub async fn appended(&self) {
        match self {
            Intake::Local(log) => log.appended().await,
            Intake::JetStream(log) => log.appended().await,
        }
    }

    /// A reader of `stream` after `after` (`None`: from the oldest entry kept), for `name` (a
    /// job version's source vertex).
    pub async fn reader(
        &self,
        stream: &str,
        name: &str,
        after: Option<u64>,
    ) -> Result<Reader, IntakeLogError> {
        match self {
            Intake::Local(log) => Ok(Reader::Local {
                log: log.clone(),
                stream: stream.to_owned(),
            }),
            Intake::JetStream(log) => Ok(Reader::JetStream(Box::new(
                log.reader(stream, name, after).await?,
            ))),
        }
    }

    /// What `/healthz` says of it: `embedded`, `jetstream` or `jetstream-unreachable`.
    pub fn health(&self) -> &'static str {
        match self {
            Intake::Local(_) => "embedded",
            Intake::JetStream(log) if log.connected() => "jetstream",
            Intake::JetStream(_) => "jetstream-unreachable",
        }
    }

    /// Where it is, for the service's first lines.
    pub fn describe(&self) -> String {
        match self {
            Intake::Local(_) => "intake: the embedded log (intake.redb)".into(),
            Intake::JetStream(_) => "intake: NATS JetStream (intake.nats)".into(),
        }
    }
}

/// A run's reader of one stream.
pub enum Reader {
    /// Reads the embedded log by position.
    Local {
        /// The log.
        log: IntakeLog,
        /// The stream.
        stream: String,
    },
    /// A durable consumer.
    JetStream(Box<jetstream::Reader>),
}

impl Reader {
    /// The entries after `after`, about `max_events` events of them.
    pub async fn read(
        &mut self,
        after: u64,
        max_events: usize,
    ) -> Result<Vec<Entry>, IntakeLogError> {
        match self {
            Reader::Local { log, stream } => log.read(stream, after, max_events),
            Reader::JetStream(reader) => reader.read(after, max_events).await,
        }
    }

    /// Whether entries are kept past `after` that it has not read.
    pub fn behind(&self, after: u64) -> bool {
        match self {
            Reader::Local { log, stream } => log.info(stream).head > after,
            Reader::JetStream(reader) => reader.behind(),
        }
    }

    /// Everything read so far is checkpointed (JetStream: acknowledged).
    pub async fn checkpointed(&mut self) -> Result<(), IntakeLogError> {
        match self {
            Reader::Local { .. } => Ok(()),
            Reader::JetStream(reader) => reader.checkpointed().await,
        }
    }
}
