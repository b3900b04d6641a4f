//! The threads that verify client secrets (Argon2id): a few of their own, never every core,
//! with a bounded queue. Reads, writes and script runs never wait for them (the store runs on
//! tokio's blocking pool, scripts in the sandbox's workers); a token request past the queue is
//! answered 429 at once instead of piling up.

use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex, PoisonError};

use super::auth::{decoy_hash, verify_secret};

type Job = Box<dyn FnOnce() + Send>;

/// Why a secret was not verified.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub(crate) enum PoolError {
    /// Every thread is busy and the queue is full: retry shortly.
    #[error("every secret-verification thread is busy and the queue is full")]
    Busy,
    /// No thread runs (none could be started, or one panicked with the job).
    #[error("no secret-verification thread is running (see the log of the service's start)")]
    Gone,
}

/// A fixed set of threads fed from one bounded queue.
pub(crate) struct HashPool {
    jobs: SyncSender<Job>,
}

impl HashPool {
    /// Starts `threads` threads (at least one) behind a queue of `queue` jobs.
    pub(crate) fn start(threads: usize, queue: usize) -> Self {
        let (jobs, receiver) = sync_channel::<Job>(queue);
        let receiver = Arc::new(Mutex::new(receiver));
        for n in 0..threads.max(1) {
            let receiver = Arc::clone(&receiver);
            let started = std::thread::Builder::new()
                .name(format!("jobgraph-secrets-{n}"))
                .spawn(move || work(&receiver));
            if let Err(error) = started {
                tracing::error!(target: "jobgraph::auth", %error, "cannot start a secret-verification thread");
            }
        }
        // The decoy hash is made once, on a pool thread, before any unknown client asks: from
        // then on an unknown id costs one verification, as a known one does.
        let _ = jobs.try_send(Box::new(|| {
            decoy_hash();
        }));
        HashPool { jobs }
    }

    /// Whether `secret` matches the PHC string `hash`, computed on one of the pool's threads;
    /// without a hash (an unknown client), a decoy that costs the same and matches nothing.
    pub(crate) async fn verify(
        &self,
        secret: String,
        hash: Option<String>,
    ) -> Result<bool, PoolError> {
        let (answer, answered) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let hash = match &hash {
                Some(hash) => hash.as_str(),
                None => decoy_hash(),
            };
            let _ = answer.send(verify_secret(&secret, hash));
        });
        self.jobs.try_send(job).map_err(|e| match e {
            TrySendError::Full(_) => PoolError::Busy,
            TrySendError::Disconnected(_) => PoolError::Gone,
        })?;
        answered.await.map_err(|_| PoolError::Gone)
    }
}

/// One thread: runs jobs until every sender is gone (the state was dropped).
fn work(receiver: &Mutex<Receiver<Job>>) {
    loop {
        let job = receiver
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .recv();
        match job {
            Ok(job) => job(),
            Err(_) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::hash_secret;

    #[test]
    fn verifies_and_refuses_past_its_queue() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let pool = HashPool::start(1, 1);
        let hash = hash_secret("right").unwrap();
        runtime.block_on(async {
            assert_eq!(
                pool.verify("right".into(), Some(hash.clone())).await,
                Ok(true)
            );
            assert_eq!(
                pool.verify("wrong".into(), Some(hash.clone())).await,
                Ok(false)
            );
            // One running, one queued: a third at the same time is refused, not queued.
            let (a, b, c) = tokio::join!(
                pool.verify("a".into(), None),
                pool.verify("b".into(), None),
                pool.verify("c".into(), None),
            );
            let all = [a, b, c];
            assert!(all.contains(&Err(PoolError::Busy)), "{all:?}");
        });
    }
}
