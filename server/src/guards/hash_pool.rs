//! The threads that verify client secrets (Argon2id): a few of their own, never every core,
//! with bounded queues. Reads, writes and script runs never wait for them (the store runs on
//! tokio's blocking pool, scripts in the sandbox's workers); a token request past its queue is
//! answered 429 instead of piling up. Requests of a (client id, address) pair that got a token
//! before have a queue of their own, served first: a flood of guesses that fills the other
//! queue delays a known client by the verifications already running, not by the whole queue.

use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use crate::guards::secrets::{decoy_hash, verify_secret};

type Job = Box<dyn FnOnce() + Send>;

/// Why a secret was not verified.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub(crate) enum PoolError {
    /// Every thread is busy and the queue is full: retry shortly.
    #[error("every secret-verification thread is busy and the queue is full")]
    Busy,
    /// No thread runs (none could be started).
    #[error("no secret-verification thread is running (see the log of the service's start)")]
    Gone,
}

/// Which queue a verification waits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lane {
    /// A (client id, address) pair that got a token before: served first.
    Known,
    /// Everyone else.
    Other,
}

#[derive(Default)]
struct Queues {
    known: VecDeque<Job>,
    other: VecDeque<Job>,
    closed: bool,
}

struct Shared {
    queues: Mutex<Queues>,
    ready: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queues> {
        self.queues.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A fixed set of threads fed from two bounded queues.
pub(crate) struct HashPool {
    shared: Arc<Shared>,
    capacity: usize,
    threads: usize,
}

impl HashPool {
    /// Starts `threads` threads (at least one) behind queues of `queue` jobs each.
    pub(crate) fn start(threads: usize, queue: usize) -> Self {
        let shared = Arc::new(Shared {
            queues: Mutex::new(Queues::default()),
            ready: Condvar::new(),
        });
        let mut started = 0;
        for n in 0..threads.max(1) {
            let shared = Arc::clone(&shared);
            match std::thread::Builder::new()
                .name(format!("jobgraph-secrets-{n}"))
                .spawn(move || work(&shared))
            {
                Ok(_) => started += 1,
                Err(error) => {
                    tracing::error!(target: "jobgraph::auth", %error, "cannot start a secret-verification thread");
                }
            }
        }
        let pool = HashPool {
            shared,
            capacity: queue.max(1),
            threads: started,
        };
        // The decoy hash is made once, on a pool thread, before any unknown client asks: from
        // then on an unknown id costs one verification, as a known one does.
        let _ = pool.submit(
            Lane::Other,
            Box::new(|| {
                decoy_hash();
            }),
        );
        pool
    }

    fn submit(&self, lane: Lane, job: Job) -> Result<(), PoolError> {
        if self.threads == 0 {
            return Err(PoolError::Gone);
        }
        let mut queues = self.shared.lock();
        let queue = match lane {
            Lane::Known => &mut queues.known,
            Lane::Other => &mut queues.other,
        };
        if queue.len() >= self.capacity {
            return Err(PoolError::Busy);
        }
        queue.push_back(job);
        drop(queues);
        self.shared.ready.notify_one();
        Ok(())
    }

    /// Whether `secret` matches the PHC string `hash`, computed on one of the pool's threads;
    /// without a hash (an unknown client), a decoy that costs the same and matches nothing.
    pub(crate) async fn verify(
        &self,
        lane: Lane,
        secret: String,
        hash: Option<String>,
    ) -> Result<bool, PoolError> {
        let (answer, answered) = tokio::sync::oneshot::channel();
        self.submit(
            lane,
            Box::new(move || {
                let hash = match &hash {
                    Some(hash) => hash.as_str(),
                    None => decoy_hash(),
                };
                let _ = answer.send(verify_secret(&secret, hash));
            }),
        )?;
        answered.await.map_err(|_| PoolError::Gone)
    }
}

impl Drop for HashPool {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.ready.notify_all();
    }
}

/// One thread: runs jobs, known pairs' first, until the pool is dropped.
fn work(shared: &Shared) {
    loop {
        let job = {
            let mut queues = shared.lock();
            loop {
                if let Some(job) = queues
                    .known
                    .pop_front()
                    .or_else(|| queues.other.pop_front())
                {
                    break job;
                }
                if queues.closed {
                    return;
                }
                queues = shared
                    .ready
                    .wait(queues)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        };
        // A job that panics loses its answer (the request fails with a 500), not the thread.
        let _ = catch_unwind(AssertUnwindSafe(job));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guards::secrets::hash_secret;

    #[test]
    fn verifies_and_refuses_past_its_queue() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let pool = HashPool::start(1, 1);
        let hash = hash_secret("right").unwrap();
        runtime.block_on(async {
            assert_eq!(
                pool.verify(Lane::Other, "right".into(), Some(hash.clone()))
                    .await,
                Ok(true)
            );
            assert_eq!(
                pool.verify(Lane::Other, "wrong".into(), Some(hash.clone()))
                    .await,
                Ok(false)
            );
            // One running, one queued: a third at the same time is refused, not queued.
            let (a, b, c) = tokio::join!(
                pool.verify(Lane::Other, "a".into(), None),
                pool.verify(Lane::Other, "b".into(), None),
                pool.verify(Lane::Other, "c".into(), None),
            );
            let all = [a, b, c];
            assert!(all.contains(&Err(PoolError::Busy)), "{all:?}");
            // The known pairs' queue is served first: with the other queue full, a known
            // request is still taken (and answered).
            let (a, b, known) = tokio::join!(
                pool.verify(Lane::Other, "a".into(), None),
                pool.verify(Lane::Other, "b".into(), None),
                pool.verify(Lane::Known, "right".into(), Some(hash.clone())),
            );
            assert_eq!(known, Ok(true), "{a:?} {b:?}");
        });
    }
}
