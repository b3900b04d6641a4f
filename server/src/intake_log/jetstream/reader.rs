//! A run's reader of the JetStream intake log: a durable pull consumer, its messages handed
//! out in order and acknowledged at the run's checkpoints.

use async_nats::jetstream::{self, consumer};
use futures_util::StreamExt;

use super::{EVENTS, RECEIVED, nats_error};

/// How long a fetch may wait for its answer.
const FETCH_WAIT: std::time::Duration = std::time::Duration::from_secs(5);
use crate::intake_log::{Entry, IntakeLogError};

/// A run's reader: a durable pull consumer on its integration's subject.
pub struct Reader {
    consumer: consumer::PullConsumer,
    /// Fetched and not read yet.
    fetched: std::collections::VecDeque<jetstream::Message>,
    /// The last message read: acknowledged (with all before it) at the next checkpoint.
    last: Option<jetstream::Message>,
    /// Messages the server holds for it that it has not fetched.
    pending: u64,
}

impl Reader {
    pub(super) fn new(consumer: consumer::PullConsumer) -> Reader {
        Reader {
            consumer,
            fetched: std::collections::VecDeque::new(),
            last: None,
            pending: 0,
        }
    }

    /// The messages after `after`, as entries, as many as hold at most `max_events` events
    /// (at least one when there is one). Messages are fetched 64 at a time and handed out in
    /// order: acknowledging a message acknowledges every one before it, so none is dropped.
    pub async fn read(
        &mut self,
        after: u64,
        max_events: usize,
    ) -> Result<Vec<Entry>, IntakeLogError> {
        if self.fetched.is_empty() {
            self.fetch().await?;
        }
        let mut out: Vec<Entry> = Vec::new();
        let mut taken = 0usize;
        while let Some(message) = self.fetched.front() {
            let (seq, events, received_ms) = describe(message)?;
            // Delivered again after `ack_wait`: read already.
            if seq <= after || out.last().is_some_and(|e| seq <= e.seq) {
                self.fetched.pop_front();
                continue;
            }
            if !out.is_empty() && taken + events as usize > max_events {
                break;
            }
            let Some(message) = self.fetched.pop_front() else {
                break;
            };
            out.push(Entry {
                seq,
                events,
                received_ms,
                ndjson: message.payload.to_vec(),
            });
            taken += events as usize;
            self.last = Some(message);
            if taken >= max_events {
                break;
            }
        }
        Ok(out)
    }

    /// Fetches what there is now. A fetch whose answer never comes (the connection lost while
    /// it waits) would wait for ever: past 5 s it is a [`IntakeLogError::Nats`], and the
    /// source opens its reader again at its position.
    async fn fetch(&mut self) -> Result<(), IntakeLogError> {
        let consumer = &self.consumer;
        let fetched = tokio::time::timeout(FETCH_WAIT, async {
            let mut batch = consumer
                .fetch()
                .max_messages(64)
                .max_bytes(64 << 20)
                .messages()
                .await
                .map_err(|e| nats_error("cannot read the intake stream")(&e))?;
            let mut fetched = Vec::new();
            while let Some(message) = batch.next().await {
                fetched.push(message.map_err(|e| nats_error("cannot read the intake stream")(&e))?);
            }
            Ok::<_, IntakeLogError>(fetched)
        })
        .await
        .map_err(|_| IntakeLogError::Nats {
            message: format!(
                "no answer to a fetch from the intake stream within {} s",
                FETCH_WAIT.as_secs()
            ),
        })??;
        for message in fetched {
            if let Ok(info) = message.info() {
                self.pending = info.pending;
            }
            self.fetched.push_back(message);
        }
        Ok(())
    }

    /// Whether messages are kept that it has not read.
    pub fn behind(&self) -> bool {
        self.pending > 0 || !self.fetched.is_empty()
    }

    /// Acknowledges everything read so far (its position is checkpointed).
    pub async fn checkpointed(&mut self) -> Result<(), IntakeLogError> {
        if let Some(message) = self.last.take() {
            message
                .ack()
                .await
                .map_err(|e| nats_error("cannot acknowledge the intake stream")(&e))?;
        }
        Ok(())
    }
}

/// A message's stream sequence, event count and time taken.
fn describe(message: &jetstream::Message) -> Result<(u64, u32, i64), IntakeLogError> {
    let seq = message
        .info()
        .map_err(|e| nats_error("a message of the intake stream")(&e))?
        .stream_sequence;
    let header = |name: &str| {
        message
            .headers
            .as_ref()
            .and_then(|h| h.get(name))
            .and_then(|v| v.as_str().parse::<i64>().ok())
            .unwrap_or(0)
    };
    Ok((
        seq,
        u32::try_from(header(EVENTS)).unwrap_or(0),
        header(RECEIVED),
    ))
}
